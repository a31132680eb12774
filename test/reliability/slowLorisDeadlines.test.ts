import { connect, type Socket } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLimitedServer, listenOn, type Listening } from '@rondo/core/node';

// Issue 31, point 12: each slow connection is cut at its own header deadline, counted from when the
// server accepted it, not at the next turn of a periodic sweep. A handful of connections opened at
// staggered times keeps the test's own load small: with a sweep every 250 ms the cuts land anywhere
// up to 250 ms late, so eight of them all landing within 100 ms of their deadlines tells the two
// apart (by chance under a sweep: 0.4^8, under one in a thousand).
const HEADERS_TIMEOUT_MS = 1000;
const CONNECTIONS = 8;
const STAGGER_MS = 137;
const TOLERANCE_MS = 100;

interface Held {
  acceptedAt: number;
  closedAt: number | undefined;
}

/** How long the event loop was kept from turning: a loaded machine delays every timer that much. */
const loopDelay = monitorEventLoopDelay({ resolution: 10 });

describe('slow connections opened apart are cut apart, each at its own deadline', () => {
  let listening: Listening;
  const held: Held[] = [];
  const sockets: Socket[] = [];

  beforeAll(async () => {
    const server = createLimitedServer({ headersTimeoutMs: HEADERS_TIMEOUT_MS }, (_req, res) =>
      res.end('served'),
    );
    server.on('connection', (socket: Socket) => {
      const entry: Held = { acceptedAt: Date.now(), closedAt: undefined };
      held.push(entry);
      socket.once('close', () => (entry.closedAt = Date.now()));
    });
    listening = await listenOn(server, 0, '127.0.0.1');
  });
  afterAll(async () => {
    loopDelay.disable();
    for (const socket of sockets) socket.destroy();
    await listening.close();
  });

  it('cuts each within 100 ms of its deadline, give or take the event loop stalls', async () => {
    loopDelay.enable();
    for (let index = 0; index < CONNECTIONS; index += 1) {
      const socket = connect(listening.port, '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a');
      sockets.push(socket);
      await new Promise((resolve) => setTimeout(resolve, STAGGER_MS));
    }
    const giveUpAt = Date.now() + HEADERS_TIMEOUT_MS + 5000;
    while (
      (held.length < CONNECTIONS || held.some((entry) => entry.closedAt === undefined)) &&
      Date.now() < giveUpAt
    )
      await new Promise((resolve) => setTimeout(resolve, 20));
    const late = held.map(
      (entry) => (entry.closedAt ?? Infinity) - entry.acceptedAt - HEADERS_TIMEOUT_MS,
    );
    const stallMs = loopDelay.max / 1e6;
    console.info(
      `slow loris deadlines: cuts ${late.join(', ')} ms after each deadline; ` +
        `the event loop stalled for up to ${stallMs.toFixed(0)} ms`,
    );
    expect(held).toHaveLength(CONNECTIONS);
    for (const lateness of late) {
      expect(lateness).toBeGreaterThanOrEqual(-20);
      expect(lateness).toBeLessThan(TOLERANCE_MS + stallMs);
    }
  });
});
