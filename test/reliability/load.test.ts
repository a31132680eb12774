import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { serveWebSocket, type WebSocketServerHandle } from '@rondo/transport-ws';
import { modern, mrtrRound } from './support/messages.js';
import {
  eventually,
  startReliabilityServer,
  swiplMissing,
  type ReliabilityServer,
} from './support/reliabilityServer.js';
import { WsClient } from './support/wsClient.js';

/** The numbers: 50 clients, 2,000 calls each. RONDO_LOAD_CALLS lowers the per-client count. */
const CLIENTS = 50;
const CALLS = Number(process.env.RONDO_LOAD_CALLS ?? 2000);

const missing = swiplMissing();
let rondo: ReliabilityServer;
let server: WebSocketServerHandle;

beforeAll(async () => {
  if (missing) console.warn(`load: skipping the bridge calls: ${missing}`);
  rondo = await startReliabilityServer({ bridge: !missing });
  server = await serveWebSocket(rondo.endpoint, { keepAlive: false });
});
afterAll(async () => {
  await server.close();
  await rondo.close();
  await rondo.bridge?.close();
});

/** One call of the mix, checked: returns an error description, or undefined when the result is right. */
async function mixedCall(
  client: WsClient,
  clientNo: number,
  callNo: number,
): Promise<string | undefined> {
  const text = `c${clientNo}-${callNo}`;
  const kind = callNo % 10;
  if (kind === 6 || kind === 7) {
    let state: unknown;
    for (let round = 1; round <= 3; round++) {
      const answer = await client.request((id) => mrtrRound(id, round, text, state));
      const result = answer.result;
      if (round < 3 && result?.resultType !== 'input_required')
        return `mrtr round ${round}: ${JSON.stringify(answer)}`;
      state = result?.requestState;
      if (
        round === 3 &&
        (result?.structuredContent as { text?: string } | undefined)?.text !== text
      )
        return `mrtr end: ${JSON.stringify(answer)}`;
    }
    return undefined;
  }
  if (kind === 3 || kind === 9) {
    const answer = await client.request((id) =>
      modern(id, 'tools/call', { name: 'add', arguments: { a: clientNo, b: callNo } }),
    );
    const sum = (answer.result?.structuredContent as { sum?: number } | undefined)?.sum;
    return sum === clientNo + callNo ? undefined : `add: ${JSON.stringify(answer)}`;
  }
  const name = kind === 8 && !missing ? 'prolog_echo' : 'echo';
  const answer = await client.request((id) =>
    modern(id, 'tools/call', { name, arguments: { text } }),
  );
  const echoed = (answer.result?.structuredContent as { text?: string } | undefined)?.text;
  return echoed === text ? undefined : `${name}: ${JSON.stringify(answer)}`;
}

describe('load', () => {
  it(
    `serves ${CLIENTS} concurrent clients x ${CALLS} mixed calls (echo, add, 3-round MRTR, bridge) with zero errors`,
    async () => {
      const started = performance.now();
      const errors: string[] = [];
      await Promise.all(
        Array.from({ length: CLIENTS }, async (_, clientNo) => {
          const client = await WsClient.connect(server.url);
          for (let callNo = 0; callNo < CALLS; callNo++) {
            const error = await mixedCall(client, clientNo, callNo);
            if (error) errors.push(error);
          }
          client.close();
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `load: ${CLIENTS * CALLS} calls in ${seconds.toFixed(1)} s (${((CLIENTS * CALLS) / seconds).toFixed(0)} calls/s)`,
      );
      expect(errors.slice(0, 5)).toEqual([]);
      await eventually(
        () => server.inFlight === 0 && rondo.inFlight === 0 && rondo.activeHandlers === 0,
        5000,
        'in-flight back to zero',
      );
    },
    scaled(240_000),
  );
});
