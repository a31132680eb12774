import { isPlainObject, parseMessage, type JsonRpcMessage } from '@rondo/protocol';

/** One entry of a Redis Stream as this package writes it: its id and the message (none when priming). */
export interface StreamEntry {
  readonly entryId: string;
  readonly message: JsonRpcMessage | undefined;
}

/** The field of a stream entry that carries the message's JSON (empty for a priming event). */
export const MESSAGE_FIELD = 'm';

const ENTRY_ID = /^(\d{1,20})-(\d{1,20})$/;

/** An SSE event id, `<stream id>:<entry id>`, split; `undefined` when it is not one of ours. */
export function splitEventId(eventId: string): { streamId: string; entryId: string } | undefined {
  const colon = eventId.lastIndexOf(':');
  if (colon <= 0) return undefined;
  const entryId = eventId.slice(colon + 1);
  if (!ENTRY_ID.test(entryId)) return undefined;
  return { streamId: eventId.slice(0, colon), entryId };
}

/** The SSE event id of a stream's entry. */
export function eventIdOf(streamId: string, entryId: string): string {
  return `${streamId}:${entryId}`;
}

/** Orders two entry ids (`<ms>-<seq>`) as Redis does: negative when `a` comes first. */
export function compareEntryIds(a: string, b: string): number {
  const [aMs, aSeq] = a.split('-').map(BigInt) as [bigint, bigint];
  const [bMs, bSeq] = b.split('-').map(BigInt) as [bigint, bigint];
  if (aMs !== bMs) return aMs < bMs ? -1 : 1;
  if (aSeq !== bSeq) return aSeq < bSeq ? -1 : 1;
  return 0;
}

/**
 * The entries of an XRANGE reply (or of one stream of an XREAD reply): `[[id, [field, value, …]], …]`.
 * An entry whose message does not parse is dropped and reported.
 */
export function decodeEntries(
  reply: unknown,
  onMalformed: (entryId: string) => void,
): StreamEntry[] {
  if (!Array.isArray(reply)) return [];
  const entries: StreamEntry[] = [];
  for (const item of reply) {
    if (!Array.isArray(item) || typeof item[0] !== 'string' || !Array.isArray(item[1])) continue;
    const entryId = item[0];
    const fields = item[1] as unknown[];
    const at = fields.indexOf(MESSAGE_FIELD);
    const text = at >= 0 ? fields[at + 1] : undefined;
    if (typeof text !== 'string') {
      onMalformed(entryId);
      continue;
    }
    if (text === '') {
      entries.push({ entryId, message: undefined });
      continue;
    }
    const parsed = parseMessage(text);
    if (parsed.ok) entries.push({ entryId, message: parsed.message });
    else onMalformed(entryId);
  }
  return entries;
}

/**
 * The streams of an XREAD reply, as `[key, entries reply]` pairs: RESP3 answers with a map (an
 * object here), RESP2 with an array of pairs; nothing read (a timeout, an unblock) is `null`.
 */
export function streamsOfRead(reply: unknown): [string, unknown][] {
  if (reply === null || reply === undefined) return [];
  if (Array.isArray(reply)) {
    return reply.filter(
      (pair): pair is [string, unknown] => Array.isArray(pair) && typeof pair[0] === 'string',
    );
  }
  if (reply instanceof Map) return [...(reply as Map<string, unknown>).entries()];
  if (isPlainObject(reply)) return Object.entries(reply);
  return [];
}
