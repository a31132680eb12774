import { expect } from 'vitest';
import { serve, type RondoServer } from '@rondo/server';

/** A server served over real HTTP on 127.0.0.1; `close` ends it. */
export async function servedHttp(
  server: RondoServer,
): Promise<{ url: string; close: () => Promise<void> }> {
  const running = await serve(server, { transport: 'http', port: 0, quiet: true });
  return { url: running.url, close: () => running.close() };
}

/** The `_meta` of a 2026-07-28 request (protocol version, capabilities, client info). */
export function modernMeta(): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {
      extensions: { 'io.modelcontextprotocol/events': {} },
    },
    'io.modelcontextprotocol/clientInfo': { name: 'rondo-events-tests', version: '1.0.0' },
  };
}

/** A JSON object off the wire whose members the tests assert. */
export type Fields = Record<string, unknown>;

/** An occurrence (a poll's `events` item, a pushed event's params). */
export interface WireOccurrence {
  readonly eventId: string;
  readonly name: string;
  readonly timestamp: string;
  readonly data: Fields;
  readonly cursor: string;
}

/** The members of the results and notification params the tests read. */
export interface WireFields extends Partial<WireOccurrence> {
  readonly [member: string]: unknown;
  readonly events: WireOccurrence[];
  readonly cursor: string;
  readonly _meta: Fields;
  readonly capabilities: { extensions: Fields };
  readonly error?: { code: number; message: string; data?: unknown };
}

/** One JSON-RPC message as it came off the wire. */
export type WireMessage = {
  id?: number | string;
  method?: string;
  params?: WireFields;
  result?: WireFields;
  error?: { code: number; message: string; data?: unknown };
};

function post(url: string, id: number, method: string, params: object, signal?: AbortSignal) {
  // A tools/call names its tool in `Mcp-Name` too, as the 2026-07-28 HTTP transport asks.
  const name = method === 'tools/call' ? (params as { name?: unknown }).name : undefined;
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      params: { ...params, _meta: modernMeta() },
    }),
    signal,
  });
}

let nextId = 1;

/** Sends one 2026-07-28 request over HTTP and answers its final message. */
export async function rpc(url: string, method: string, params: object): Promise<WireMessage> {
  const response = await post(url, nextId++, method, params);
  const text = await response.text();
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
    const messages = sseMessages(text);
    return messages[messages.length - 1]!;
  }
  return JSON.parse(text) as WireMessage;
}

/** The JSON-RPC messages of an SSE body's `data:` lines. */
function sseMessages(text: string): WireMessage[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trim())
    .filter((data) => data.length > 0)
    .map((data) => JSON.parse(data) as WireMessage);
}

/** An open `events/stream` request: its messages as they arrive, and the means to stop it. */
export interface OpenedStream {
  readonly id: number;
  readonly status: number;
  readonly messages: WireMessage[];
  /** Resolves once `count` messages satisfy `test` (rejects when the stream ends first). */
  waitFor(test: (message: WireMessage) => boolean, count?: number): Promise<WireMessage[]>;
  /** Resolves when the response ends. */
  readonly ended: Promise<void>;
  /** Aborts the HTTP request (the client goes away). */
  abort(): void;
}

/** Opens `events/stream` over HTTP and reads its SSE frames as they come. */
export async function openStream(url: string, params: object): Promise<OpenedStream> {
  const controller = new AbortController();
  const id = nextId++;
  const response = await post(url, id, 'events/stream', params, controller.signal);
  const messages: WireMessage[] = [];
  const waiters = new Set<() => void>();
  const wake = (): void => {
    for (const waiter of [...waiters]) waiter();
  };
  let done = false;
  const ended = (async () => {
    if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
      messages.push(JSON.parse(await response.text()) as WireMessage);
      return;
    }
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done: finished } = await reader.read();
        if (finished) break;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          messages.push(...sseMessages(buffer.slice(0, cut)));
          buffer = buffer.slice(cut + 2);
          wake();
        }
      }
    } catch {
      // Aborted by the test.
    }
  })().finally(() => {
    done = true;
    wake();
  });
  return {
    id,
    status: response.status,
    messages,
    ended,
    abort: () => controller.abort(),
    waitFor: (test, count = 1) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const found = messages.filter(test);
          if (found.length >= count) {
            waiters.delete(check);
            resolve(found);
          } else if (done) {
            waiters.delete(check);
            reject(new Error(`the stream ended with ${JSON.stringify(messages)}`));
          }
        };
        waiters.add(check);
        check();
      }),
  };
}

/** A test predicate: a notification of `method`. */
export const notification =
  (method: string) =>
  (message: WireMessage): boolean =>
    message.method === method;

/** The members the 2026-07-28 wire adds to every result. */
const RESULT_EXTRAS = ['_meta', 'resultType'];
/** The fields of an `events/poll` result, as the spec lists them. */
export const POLL_RESULT_FIELDS = ['events', 'cursor', 'truncated', 'hasMore', 'nextPollMs'];
/** The fields of one occurrence (a poll's `events` item, a pushed event's params). */
export const OCCURRENCE_FIELDS = ['eventId', 'name', 'timestamp', 'data', 'cursor'];

/** Asserts an `events/poll` result has the spec's fields, of the spec's types, and nothing else. */
export function expectPollResult(result: WireFields | undefined): void {
  expect(
    Object.keys(result!)
      .filter((key) => !RESULT_EXTRAS.includes(key))
      .sort(),
  ).toEqual([...POLL_RESULT_FIELDS].sort());
  expect(typeof result!.cursor).toBe('string');
  expect(typeof result!.truncated).toBe('boolean');
  expect(typeof result!.hasMore).toBe('boolean');
  expect(Number.isInteger(result!.nextPollMs)).toBe(true);
  for (const occurrence of result!.events) {
    expect(Object.keys(occurrence).sort()).toEqual([...OCCURRENCE_FIELDS].sort());
    expect(new Date(occurrence.timestamp).toISOString()).toBe(occurrence.timestamp);
  }
}
