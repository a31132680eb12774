import { connect, type Socket } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureHttp, type FixtureHttp } from '../http/support/fixtureServer.js';
import { initialize, legacy, modern, MODERN } from './support/messages.js';

// Issue 18, done-when 4: 1,000 sockets dribbling headers do not keep a legitimate client from
// being served, and the header timeout closes them (short here, 10 s by default, to keep it fast).
const SOCKETS = 1000;
const HEADERS_TIMEOUT_MS = 1500;

interface Dribbler {
  socket: Socket;
  /** When the connection was established: its header deadline runs from there. */
  openedAt: number;
  closedAt: number | undefined;
  answer: string;
}

/** A socket that sends a request line, then one header byte every 500 ms, never finishing. */
function dribble(port: number): Dribbler {
  const socket = connect(port, '127.0.0.1');
  const entry: Dribbler = { socket, openedAt: Date.now(), closedAt: undefined, answer: '' };
  socket.once('connect', () => (entry.openedAt = Date.now()));
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

describe(`${SOCKETS} slow-loris sockets against the HTTP fixture`, () => {
  let fixture: FixtureHttp;
  let slow: Dribbler[] = [];
  let started = 0;
  beforeAll(async () => {
    fixture = await startFixtureHttp({ headersTimeoutMs: HEADERS_TIMEOUT_MS });
    loopDelay.enable();
    started = Date.now();
    slow = Array.from({ length: SOCKETS }, () => dribble(fixture.server.port));
    await new Promise((resolve) => setTimeout(resolve, 300));
  });
  afterAll(async () => {
    loopDelay.disable();
    for (const entry of slow) entry.socket.destroy();
    await fixture.close();
  });

  it('serves a legacy and a modern client within 2 s while the sockets dribble', async () => {
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
    expect(servedMs).toBeLessThan(2000);
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
    // Issue 31, point 12: the cutting starts within a second of the sockets' own deadlines (the
    // timeouts are checked every 250 ms), plus however long the event loop itself was stalled
    // (this process runs the thousand sockets and the server, on a CPU shared with other work).
    // Sockets that expire together are then answered 408 and closed one after another: the last
    // goes out later by the time that takes, which docs/limits.md states with a measurement.
    const late = slow.map((entry) => (entry.closedAt ?? 0) - entry.openedAt - HEADERS_TIMEOUT_MS);
    const stallMs = loopDelay.max / 1e6;
    console.info(
      `slow loris: cut ${Math.min(...late)}–${Math.max(...late)} ms after the deadlines; ` +
        `the event loop stalled for up to ${stallMs.toFixed(0)} ms`,
    );
    expect(Math.min(...late)).toBeLessThan(1000 + stallMs);
    expect(slow.filter((entry) => entry.answer.startsWith('HTTP/1.1 408'))).toHaveLength(SOCKETS);
  });
});
