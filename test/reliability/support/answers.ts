import { WireValidator } from '@rondo/test-support/specSchemas';
import type { WireMessage } from '../../stdio/support/wire.js';
import { LEGACY, MODERN, isAnswerableRequest, revisionOf } from './messages.js';

/**
 * Checks a server's answers to hostile input: every answerable request got exactly as many
 * responses with its id as it was sent, and every message the server wrote is schema-valid for
 * the revision of the request it answers (when the spec folder is present).
 */
export class AnswerChecker {
  private readonly validators = {
    [MODERN]: WireValidator.load(MODERN),
    [LEGACY]: WireValidator.load(LEGACY),
  };

  /** Problems found; an empty list means the answers are complete and valid. */
  problems(sent: unknown[], received: WireMessage[]): string[] {
    const found: string[] = [];
    const expected = new Map<string, number>();
    for (const message of sent) {
      if (!isAnswerableRequest(message)) continue;
      const key = JSON.stringify(message.id);
      expected.set(key, (expected.get(key) ?? 0) + 1);
    }
    const answered = new Map<string, number>();
    for (const message of received) {
      if (message.method !== undefined || message.id === null || message.id === undefined) continue;
      const key = JSON.stringify(message.id);
      answered.set(key, (answered.get(key) ?? 0) + 1);
    }
    for (const [id, count] of expected) {
      if ((answered.get(id) ?? 0) !== count)
        found.push(`request id ${id}: sent ${count}, answered ${answered.get(id) ?? 0}`);
    }
    for (const [id, count] of answered) {
      if (!expected.has(id))
        found.push(`an answer for id ${id} (${count}) that no request carried`);
    }
    found.push(...this.schemaProblems(sent, received));
    return found;
  }

  /**
   * Schema problems only. Each answer must be valid for one of the requests that carried its id
   * (fuzzing reuses ids, across eras too, so the request an answer belongs to is ambiguous);
   * a message without an id must be valid in one of the revisions.
   */
  schemaProblems(sent: unknown[], received: WireMessage[]): string[] {
    const requests = sent.filter(isAnswerableRequest) as WireMessage[];
    const byId = new Map<string, WireMessage[]>();
    for (const request of requests) {
      const key = JSON.stringify(request.id);
      byId.set(key, [...(byId.get(key) ?? []), request]);
    }
    const found: string[] = [];
    for (const message of received) {
      const candidates =
        message.id === undefined ? [] : (byId.get(JSON.stringify(message.id)) ?? []);
      const attempts =
        candidates.length > 0
          ? candidates.map((r) => this.check(message, r, revisionOf(r)))
          : ([MODERN, LEGACY] as const).map((rev) => this.check(message, undefined, rev));
      if (attempts.some((problems) => problems.length === 0)) continue;
      found.push(...(attempts[0] ?? []));
    }
    return found;
  }

  private check(
    message: WireMessage,
    request: WireMessage | undefined,
    revision: typeof MODERN | typeof LEGACY,
  ): string[] {
    const validator = this.validators[revision];
    if (!validator) return [];
    try {
      return validator.problems([message], request ? [request] : []);
    } catch (failure) {
      // An answer of one era read against a request of the other that reused its id (say, an
      // input_required result against a 2025-11-25 request, whose schema has no such result):
      // not valid for this candidate, and another candidate may accept it.
      return [`not checkable against ${revision}: ${(failure as Error).message}`];
    }
  }
}
