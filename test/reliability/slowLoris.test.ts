import { connect, type Socket } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureEndpoint } from '@rondo/conformance-fixture';
import type { Endpoint } from '@rondo/core';
import { createLimitedServer, listenOn, type Listening } from '@rondo/core/node';
import { createHttpHandler, type HttpHandler } from '@rondo/transport-http';
import { initialize, legacy, modern, MODERN } from './support/messages.js';
import { scaled } from '@rondo/test-support/timeFactor';

// Issue 18, done-when 4: 1,000 sockets dribbling headers do not keep a legitimate client from
// being served, and the header timeout closes them (short here, 10 s by default, to keep it fast;
// long enough that a loaded machine has accepted all thousand before the first is cut).
const SOCKETS = 1000;
const HEADERS_TIMEOUT_MS = 4000;

interface Dribbler {
  socket: Socket;
  /** When the connection was established: its header deadline runs from there. */
  openedAt: number;
  closedAt: number | undefined;
  answer: string;
  /** Its own port, as the server sees it (known once connected). */
  port: number | undefined;
}

/** A socket that sends a request line, then one header byte every 500 ms, never finishing. */
function dribble(port: number): Dribbler {
  const socket = connect(port, '127.0.0.1');
  const entry: Dribbler = {
    socket,
    openedAt: Date.now(),
    closedAt: undefined,
    answer: '',
    port: undefined,
  };
  socket.once('connect', () => {
    entry.openedAt = Date.now();
    entry.port = socket.localPort;
  });
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (entry.answer += chunk));
  socket.on('error', () => undefined);
  socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
  const timer = setInterval(() => socket.writable && socket.write('a'), 500);
  socket.on('close', () => {
    clearInterval(timer);
    entry.closedAt = Date.now();
  });
  return entry;
}

async function postJson(url: URL, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** How long this process's event loop was kept from turning while the sockets dribbled. */
const loopDelay = monitorEventLoopDelay({ resolution: 10 });

/** What the server saw of one connection: when it accepted it and when it closed. */
interface Accepted {
  /** The client's port, which tells a dribbling socket from the legitimate client's. */
  port: number | undefined;
  at: number;
  closedAt: number | undefined;
}

/**
 * The fixture on the server `serveHttp` makes (the limited `node:http` server and the node
 * handler), built here so the test sees when the server accepted each connection: a deadline
 * runs from there, since a connection waiting in the kernel's accept queue is not the server's yet.
 */
async function startFixture(): Promise<{
  url: URL;
  accepted: Accepted[];
  close(): Promise<void>;
}> {
  const endpoint: Endpoint = createFixtureEndpoint({ log: () => undefined });
  await endpoint.ready();
  const options = { headersTimeoutMs: HEADERS_TIMEOUT_MS };
  const handler: HttpHandler = createHttpHandler(endpoint);
  const server = createLimitedServer(options, handler);
  const accepted: Accepted[] = [];
  server.on('connection', (socket: Socket) => {
    const entry: Accepted = { port: socket.remotePort, at: Date.now(), closedAt: undefined };
    accepted.push(entry);
    socket.once('close', () => (entry.closedAt = Date.now()));
  });
  const listening: Listening = await listenOn(server, 0, '127.0.0.1');
  return {
    url: new URL(`http://127.0.0.1:${listening.port}/mcp`),
    accepted,
    close: async () => {
      await handler.close();
      await listening.close();
      await endpoint.close();
    },
  };
}

describe(`${SOCKETS} slow-loris sockets against the HTTP fixture`, () => {
  let fixture: Awaited<ReturnType<typeof startFixture>>;
  let slow: Dribbler[] = [];
  let started = 0;
  beforeAll(async () => {
    fixture = await startFixture();
    loopDelay.enable();
    started = Date.now();
    slow = Array.from({ length: SOCKETS }, () => dribble(Number(fixture.url.port)));
    // The legitimate client is timed once the server holds every dribbling socket: before that it
    // would wait in the kernel's accept queue behind them, which measures the machine's load, not
    // whether held connections keep a client from being served.
    const giveUpAt = Date.now() + HEADERS_TIMEOUT_MS;
    while (acceptedDribblers() < SOCKETS && Date.now() < giveUpAt)
      await new Promise((resolve) => setTimeout(resolve, 20));
  });
  const acceptedDribblers = (): number => {
    const ports = new Set(slow.map((entry) => entry.port));
    return fixture.accepted.filter((entry) => ports.has(entry.port)).length;
  };
  afterAll(async () => {
    loopDelay.disable();
    for (const entry of slow) entry.socket.destroy();
    await fixture.close();
  });

  it('serves a legacy and a modern client within 2 s while the sockets dribble', async () => {
    expect(acceptedDribblers()).toBe(SOCKETS);
    expect(slow.filter((entry) => entry.closedAt !== undefined)).toHaveLength(0);
    const clientStarted = Date.now();
    const init = await postJson(fixture.url, initialize('fresh'));
    expect(init.status).toBe(200);
    const session = {
      'mcp-session-id': init.headers.get('mcp-session-id') ?? '',
      'mcp-protocol-version': '2025-11-25',
    };
    await postJson(fixture.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    const call = await postJson(
      fixture.url,
      legacy('call', 'tools/call', { name: 'test_simple_text' }),
      session,
    );
    expect(call.text).toContain('This is a simple text response');
    const modernCall = await postJson(
      fixture.url,
      modern('m', 'tools/call', { name: 'test_simple_text' }),
      {
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/call',
        'mcp-name': 'test_simple_text',
      },
    );
    expect(modernCall.text).toContain('This is a simple text response');
    const servedMs = Date.now() - clientStarted;
    console.info(`slow loris: a legacy and a modern client served in ${servedMs} ms`);
    expect(servedMs).toBeLessThan(scaled(2000));
    // Still held while the client was served: they were not simply refused.
    expect(slow.filter((entry) => entry.closedAt !== undefined)).toHaveLength(0);
  });

  it('closes every dribbling socket at the header timeout with 408', async () => {
    const deadline = started + HEADERS_TIMEOUT_MS + 5000;
    while (slow.some((entry) => entry.closedAt === undefined) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(slow.filter((entry) => entry.closedAt === undefined)).toHaveLength(0);
    const earliest = Math.min(...slow.map((entry) => entry.closedAt ?? 0));
    const latest = Math.max(...slow.map((entry) => entry.closedAt ?? 0));
    console.info(
      `slow loris: ${SOCKETS} sockets closed ${earliest - started}–${latest - started} ms after ` +
        `they opened (header timeout ${HEADERS_TIMEOUT_MS} ms)`,
    );
    expect(earliest - started).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
    // Issue 31, point 12: each connection is cut at its own deadline, counted from when the server
    // accepted it (a timer per connection, not a sweep that cuts all the expired ones in a turn),
    // give or take however long the event loop itself was stalled (this process runs the thousand
    // sockets and the server, on a CPU shared with other work). From the clients' side the cut
    // also waits for the server to accept the connection: a burst of a thousand waits in the
    // kernel's accept queue, which docs/limits.md states with a measurement.
    const stallMs = loopDelay.max / 1e6;
    const ports = new Set(slow.map((entry) => entry.port));
    const dribbling = fixture.accepted.filter((entry) => ports.has(entry.port));
    const serverLate = dribbling.map((entry) => entry.closedAt! - entry.at - HEADERS_TIMEOUT_MS);
    const clientLate = slow.map(
      (entry) => (entry.closedAt ?? 0) - entry.openedAt - HEADERS_TIMEOUT_MS,
    );
    const spread = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
      return `${sorted[0]}/${at(0.5)}/${at(0.99)}/${sorted.at(-1)} ms (min/median/p99/max)`;
    };
    console.info(
      `slow loris: cut ${spread(serverLate)} after the deadlines the server counts from accepting ` +
        `each connection; ${spread(clientLate)} after the clients connected; ` +
        `the event loop stalled for up to ${stallMs.toFixed(0)} ms`,
    );
    expect(dribbling).toHaveLength(SOCKETS);
    // The test notes an acceptance just after the server does; a collection may run in between.
    expect(Math.min(...serverLate)).toBeGreaterThanOrEqual(-100);
    expect(Math.max(...serverLate)).toBeLessThan(1000 + stallMs);
    expect(slow.filter((entry) => entry.answer.startsWith('HTTP/1.1 408'))).toHaveLength(SOCKETS);
  });
});
