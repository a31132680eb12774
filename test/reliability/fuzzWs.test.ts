import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { WebSocket } from 'ws';
import {
  CLOSE_UNSUPPORTED_DATA,
  serveWebSocket,
  type WebSocketServerHandle,
} from '@rondo/transport-ws';
import type { WireMessage } from '../stdio/support/wire.js';
import { AnswerChecker } from './support/answers.js';
import { hostileBytes } from './support/arbitraries.js';
import { isAnswerableRequest, modern } from './support/messages.js';
import {
  eventually,
  startReliabilityServer,
  type ReliabilityServer,
} from './support/reliabilityServer.js';

const RUNS = 120;
/** ws closes a text frame that is not UTF-8 with 1007 (invalid frame payload data). */
const CLOSE_INVALID_PAYLOAD = 1007;
const utf8 = new TextDecoder('utf-8', { fatal: true });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let rondo: ReliabilityServer;
let server: WebSocketServerHandle;
const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);

beforeAll(async () => {
  process.on('unhandledRejection', onRejection);
  rondo = await startReliabilityServer();
  server = await serveWebSocket(rondo.endpoint, { keepAlive: false });
});
afterAll(async () => {
  await server.close();
  await rondo.close();
  process.off('unhandledRejection', onRejection);
});

interface Frame {
  bytes: Buffer;
  binary: boolean;
}

/** One frame in ten is binary. */
const frame: fc.Arbitrary<Frame> = fc.record({
  bytes: hostileBytes,
  binary: fc.oneof(
    { weight: 9, arbitrary: fc.constant(false) },
    { weight: 1, arbitrary: fc.constant(true) },
  ),
});

/**
 * Sends the frames and a sentinel on a fresh socket; collects answers until the sentinel's, or the
 * close. A slow answer (an MRTR round seals its state asynchronously) may come after the
 * sentinel's: once nothing is in flight, a second sentinel flushes it, since one socket keeps order.
 */
async function exchange(
  frames: Frame[],
  sentinel: WireMessage,
): Promise<{ received: WireMessage[]; closeCode?: number }> {
  const socket = new WebSocket(server.url, 'mcp');
  const received: WireMessage[] = [];
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const flush = { ...sentinel, id: `${String(sentinel.id)}-flush` } as WireMessage;
  const answered = (id: unknown) =>
    new Promise<number | undefined>((resolve) => {
      socket.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString('utf8')) as WireMessage;
        if (message.id === id) resolve(undefined);
      });
      socket.once('close', (code) => resolve(code));
    });
  socket.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString('utf8')) as WireMessage;
    if (message.id !== flush.id) received.push(message);
  });
  const done = answered(sentinel.id);
  for (const f of frames) socket.send(f.bytes, { binary: f.binary });
  socket.send(JSON.stringify(sentinel));
  let closeCode = await done;
  if (closeCode === undefined) {
    // A request waiting on the client (which never answers here) keeps in flight: bounded wait.
    for (let waited = 0; rondo.inFlight > 0 && waited < 2000; waited += 10) await sleep(10);
    const flushed = answered(flush.id);
    socket.send(JSON.stringify(flush));
    closeCode = await flushed;
  }
  if (closeCode === undefined) socket.close();
  return { received, closeCode };
}

describe('WebSocket under hostile input', () => {
  it(
    'answers every request frame exactly once and schema-valid, or closes with a documented code',
    async () => {
      const checker = new AnswerChecker();
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(frame, { minLength: 1, maxLength: 10 }), async (frames) => {
          run++;
          const sentinel = modern(`sentinel-${run}`, 'tools/list') as WireMessage;
          const { received, closeCode } = await exchange(frames, sentinel);
          const notText = frames.some((f) => f.binary);
          const notUtf8 = frames.some((f) => !f.binary && !isUtf8(f.bytes));
          if (closeCode !== undefined) {
            // The documented closes: binary data (1003) and a text frame that is not UTF-8 (1007).
            expect([CLOSE_UNSUPPORTED_DATA, CLOSE_INVALID_PAYLOAD]).toContain(closeCode);
            expect(notText || notUtf8).toBe(true);
            return;
          }
          expect(notText || notUtf8).toBe(false);
          const sent = [...frames.map((f) => parse(f.bytes)), sentinel].filter(isAnswerableRequest);
          // An invalid message whose id can be read is answered with an error carrying that id, and
          // a request the client cancelled need not be answered (both eras say so): neither count.
          const parsed = frames.map((f) => parse(f.bytes));
          const loose = new Set(
            parsed
              .filter((m) => !isAnswerableRequest(m))
              .map((m) => JSON.stringify((m as { id?: unknown } | null)?.id)),
          );
          for (const m of parsed) {
            const message = m as { method?: unknown; params?: { requestId?: unknown } } | null;
            if (message?.method === 'notifications/cancelled')
              loose.add(JSON.stringify(message.params?.requestId));
          }
          const counted = (m: { id?: unknown }) => !loose.has(JSON.stringify(m.id));
          expect(checker.problems(sent.filter(counted), received.filter(counted))).toEqual([]);
        }),
        { numRuns: RUNS },
      );
      await eventually(
        () => server.connections === 0 && server.inFlight === 0 && rondo.inFlight === 0,
        5000,
        'sockets and in-flight back to zero',
      );
      expect(rondo.openConnections).toBe(0);
      expect(rejections).toEqual([]);
    },
    scaled(120_000),
  );
});

function isUtf8(bytes: Buffer): boolean {
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function parse(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}
