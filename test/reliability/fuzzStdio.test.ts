import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { AnswerChecker } from './support/answers.js';
import { hostileBytes } from './support/arbitraries.js';
import { isAnswerableRequest, modern } from './support/messages.js';
import { eventually } from './support/reliabilityServer.js';
import { StdioChild } from './support/stdioChild.js';

const RUNS = 100;
const utf8 = new TextDecoder('utf-8', { fatal: true });

let server: StdioChild;
beforeAll(() => {
  server = new StdioChild();
});
afterAll(() => server.stop());

/** The lines a byte stream holds, as the server's framer sees them: split at every newline byte. */
function linesOf(stream: Buffer): { text: string; exact: boolean }[] {
  const lines: { text: string; exact: boolean }[] = [];
  let start = 0;
  for (let i = stream.indexOf(10); i >= 0; i = stream.indexOf(10, start)) {
    const bytes = stream.subarray(start, i);
    start = i + 1;
    try {
      lines.push({ text: utf8.decode(bytes), exact: true });
    } catch {
      lines.push({ text: bytes.toString('utf8'), exact: false });
    }
  }
  return lines;
}

/** Splits `stream` at the given fractions of its length. */
function splitAt(stream: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => Math.floor(c * stream.length)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const point of [...points, stream.length]) {
    if (point > from) chunks.push(stream.subarray(from, point));
    from = point;
  }
  return chunks;
}

describe('stdio under hostile input', () => {
  it(
    'answers every request line exactly once, schema-valid, with frames split and merged at random',
    async () => {
      const checker = new AnswerChecker();
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(hostileBytes, { minLength: 1, maxLength: 15 }),
          fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 }),
          async (frames, cuts) => {
            run++;
            const sentinel = modern(`sentinel-${run}`, 'tools/list');
            const stream = Buffer.concat([
              ...frames.flatMap((f) => [f, Buffer.from('\n')]),
              Buffer.from(`${JSON.stringify(sentinel)}\n`),
            ]);
            const sent: unknown[] = [];
            const maybe = new Set<string>();
            for (const line of linesOf(stream)) {
              let value: unknown;
              try {
                value = JSON.parse(line.text);
              } catch {
                continue;
              }
              // An invalid message whose id can be read is answered with an error carrying it; a line
              // that is not UTF-8 may be read either way: such ids are left out of the count.
              const id = (value as { id?: unknown } | null)?.id;
              // A request cancelled by the client need not be answered (both eras say so): the id a
              // `notifications/cancelled` names may go either way.
              const cancelled = cancelledRequestId(value);
              if (cancelled !== undefined) maybe.add(JSON.stringify(cancelled));
              if (isAnswerableRequest(value) && line.exact) sent.push(value);
              else if (typeof id === 'string' || typeof id === 'number')
                maybe.add(JSON.stringify(id));
            }
            const from = server.received.length;
            await server.write(splitAt(stream, cuts));
            await eventually(
              () => server.received.slice(from).some((m) => m.id === sentinel.id),
              10_000,
              `the sentinel of run ${run}`,
            );
            await new Promise((resolve) => setTimeout(resolve, 20));
            const counted = (m: unknown) => !maybe.has(JSON.stringify((m as { id?: unknown }).id));
            const answers = server.received.slice(from).filter(counted);
            expect(checker.problems(sent.filter(counted), answers)).toEqual([]);
            expect(server.noise).toEqual([]);
            expect(server.alive).toBe(true);
          },
        ),
        { numRuns: RUNS },
      );
      // Memory stays bounded: a few hundred hostile frames leave the process small.
      expect(server.rssBytes()).toBeLessThan(300 * 1024 * 1024);
    },
    scaled(120_000),
  );
});

/** The request id a `notifications/cancelled` names, if `value` is one. */
function cancelledRequestId(value: unknown): unknown {
  const message = value as { method?: unknown; params?: { requestId?: unknown } } | null;
  return message?.method === 'notifications/cancelled' ? message.params?.requestId : undefined;
}
