import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { createHttpHandler, type HttpHandler } from '@rondo/transport-http';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WireMessage } from '../stdio/support/wire.js';
import { AnswerChecker } from './support/answers.js';
import { hostileBytes } from './support/arbitraries.js';
import { LEGACY, MODERN, isAnswerableRequest } from './support/messages.js';
import {
  eventually,
  startReliabilityServer,
  type ReliabilityServer,
} from './support/reliabilityServer.js';

let rondo: ReliabilityServer;
let handler: HttpHandler;
let http: Server;
let url: string;
const RUNS = 300;
const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);

beforeAll(async () => {
  process.on('unhandledRejection', onRejection);
  rondo = await startReliabilityServer();
  handler = createHttpHandler(rondo.endpoint, { onError: () => undefined });
  http = createServer(handler);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  await handler.close();
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
  await rondo.close();
  process.off('unhandledRejection', onRejection);
});

const headerSets = fc.constantFrom<Record<string, string>>(
  { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
  { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
  { 'mcp-protocol-version': LEGACY },
  { 'mcp-protocol-version': LEGACY, 'mcp-session-id': 'no-such-session' },
  {},
);

/** Posts a body and returns the status and the JSON-RPC messages in the answer (JSON or SSE). */
async function post(
  body: Buffer,
  headers: Record<string, string>,
): Promise<{ status: number; messages: WireMessage[] }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body,
  });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  if (text === '') return { status: response.status, messages: [] };
  if (type.startsWith('text/event-stream')) {
    const data = text.split('\n').filter((l) => l.startsWith('data: ') && l.length > 6);
    return {
      status: response.status,
      messages: data.map((l) => JSON.parse(l.slice(6)) as WireMessage),
    };
  }
  return { status: response.status, messages: [JSON.parse(text) as WireMessage] };
}

describe('HTTP under hostile input', () => {
  it(
    'answers every POST without a 5xx, every request exactly once, and every message schema-valid',
    async () => {
      const checker = new AnswerChecker();
      const problems: string[] = [];
      await fc.assert(
        fc.asyncProperty(hostileBytes, headerSets, async (body, headers) => {
          const { status, messages } = await post(body, headers);
          expect(status).toBeLessThan(500);
          let parsed: unknown;
          try {
            parsed = JSON.parse(body.toString('utf8'));
          } catch {
            parsed = undefined;
          }
          for (const message of messages) expect(message.jsonrpc).toBe('2.0');
          const request = isAnswerableRequest(parsed) ? parsed : undefined;
          // A request refused before it is read (no session, bad headers) is answered with id null.
          if (request && status < 400) {
            expect(
              messages.filter((m) => m.id === request.id && m.method === undefined),
            ).toHaveLength(1);
          }
          const answers = messages.filter((m) => m.id !== null);
          problems.push(...checker.schemaProblems(request ? [request] : [], answers));
        }),
        { numRuns: RUNS },
      );
      expect(problems).toEqual([]);
      await eventually(
        () => rondo.inFlight === 0 && rondo.activeHandlers === 0,
        5000,
        'in-flight back to zero',
      );
      // Sessions opened by fuzzed `initialize`s are the only state kept, and closing releases them.
      expect(handler.sessionCount).toBeLessThanOrEqual(RUNS);
      expect(rejections).toEqual([]);
    },
    scaled(120_000),
  );

  it('still serves a well-formed call after the fuzzing', async () => {
    const { status, messages } = await post(
      Buffer.from(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 'after',
          method: 'tools/call',
          params: {
            name: 'echo',
            arguments: { text: 'ok' },
            _meta: {
              'io.modelcontextprotocol/protocolVersion': MODERN,
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        }),
      ),
      { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
    );
    expect(status).toBe(200);
    expect(messages[0]?.result?.structuredContent).toEqual({ text: 'ok' });
  });
});
