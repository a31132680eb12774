import { WireValidator } from '../../stdio/support/wireSchema.js';
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

  /** Schema problems only: each answer checked against the revision of the request it answers. */
  schemaProblems(sent: unknown[], received: WireMessage[]): string[] {
    const requests = sent.filter(isAnswerableRequest) as WireMessage[];
    const revisionById = new Map(requests.map((r) => [JSON.stringify(r.id), revisionOf(r)]));
    const found: string[] = [];
    for (const revision of [MODERN, LEGACY] as const) {
      const validator = this.validators[revision];
      if (!validator) continue;
      const mine = received.filter(
        (m) => (revisionById.get(JSON.stringify(m.id)) ?? MODERN) === revision,
      );
      // Duplicate ids across eras would confuse the method lookup: validate per revision only.
      found.push(
        ...validator.problems(
          mine,
          requests.filter((r) => revisionOf(r) === revision),
        ),
      );
    }
    return found;
  }
}
