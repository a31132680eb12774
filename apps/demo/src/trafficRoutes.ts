import express, { type Request, type Response, type Router } from 'express';
import {
  checkHostAndOrigin,
  clientAddress,
  resolveHostGuard,
  type HostGuardOptions,
} from '@rondo/core';
import type { ServerTraffic, TrafficRecord } from './serverTraffic.js';

/** How many `GET /traffic/stream` connections may be open at once; more are answered 503. */
export const MAX_TRAFFIC_STREAMS = 8;

/** How many of them one client (one address, see `clientAddressHeader`) may hold; more get 503. */
export const MAX_TRAFFIC_STREAMS_PER_CLIENT = 2;

/** A comment line this often keeps proxies and idle timers from closing a quiet stream. */
const KEEP_ALIVE_MS = 15_000;

export interface TrafficRoutesOptions {
  /** The same Host / Origin options as the MCP transports get (default: theirs). */
  guard?: HostGuardOptions;
  maxStreams?: number;
  /** Streams one client address may hold (default {@link MAX_TRAFFIC_STREAMS_PER_CLIENT}). */
  maxStreamsPerClient?: number;
  /**
   * Behind a reverse proxy, the header it names the client in, as the MCP transports take it:
   * without it every client behind the proxy shares the proxy's address and its slots.
   */
  clientAddressHeader?: string;
}

/** The routes, and a way to end every open stream. */
export interface TrafficRoutes {
  router: Router;
  /** How many streams are open now. */
  readonly streams: number;
  close(): void;
}

/** `after` from the query or the `Last-Event-ID` header: a non-negative integer, 0 when absent. */
function afterOf(req: Request): number | undefined {
  const raw = req.get('last-event-id') ?? req.query.after;
  if (raw === undefined) return 0;
  const after = typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  return Number.isSafeInteger(after) ? after : undefined;
}

/**
 * Writes the records after `after` to an SSE response, then each new one, never more than one
 * socket buffer ahead of the reader; stops when the response closes.
 */
function streamTraffic(traffic: ServerTraffic, res: Response, after: number): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
  });
  // An id from before a restart is larger than anything this server has recorded: start over.
  let sent = after > traffic.total ? 0 : after;
  let draining = false;
  const flush = (): void => {
    if (draining || res.writableEnded) return;
    const pending = traffic.records(sent);
    const last = pending.at(-1);
    if (last === undefined) return;
    sent = last.seq;
    if (!res.write(pending.map(event).join(''))) {
      draining = true;
      res.once('drain', () => {
        draining = false;
        flush();
      });
    }
  };
  const unsubscribe = traffic.subscribe(flush);
  const keepAlive = setInterval(() => {
    if (!draining) res.write(': keep-alive\n\n');
  }, KEEP_ALIVE_MS);
  keepAlive.unref();
  const start = { capacity: traffic.capacity, total: traffic.total };
  res.write(`event: start\ndata: ${JSON.stringify(start)}\n\n`);
  flush();
  res.once('close', () => {
    unsubscribe();
    clearInterval(keepAlive);
  });
}

function event(record: TrafficRecord): string {
  return `id: ${record.seq}\nevent: call\ndata: ${JSON.stringify(record)}\n\n`;
}

/**
 * What the server saw, for the playground: `GET /traffic` answers the kept records as JSON (newest
 * first), `GET /traffic/stream` is a server-sent-events stream that replays them and then pushes
 * each new one. Neither is MCP, so neither passes through the server's middleware or shows up in
 * the traffic itself. Both run the MCP transports' Host / Origin guard.
 *
 * A stream holds at most one socket buffer of records: while the client does not read, nothing more
 * is written, and once it drains it gets what the ring still has, so a slow reader skips records
 * rather than growing the server's memory.
 */
export function trafficRoutes(
  traffic: ServerTraffic,
  options: TrafficRoutesOptions = {},
): TrafficRoutes {
  const guard = resolveHostGuard(options.guard);
  const maxStreams = options.maxStreams ?? MAX_TRAFFIC_STREAMS;
  const perClient = options.maxStreamsPerClient ?? MAX_TRAFFIC_STREAMS_PER_CLIENT;
  const open = new Set<Response>();
  const byClient = new Map<string, number>();
  const router = express.Router();

  router.use(['/traffic', '/traffic/stream'], (req, res, next) => {
    const verdict = checkHostAndOrigin(
      { host: req.get('host'), origin: req.get('origin'), localAddress: req.socket.localAddress },
      guard,
    );
    if (verdict.ok) return next();
    res.status(verdict.status).type('text/plain').send(verdict.reason);
  });

  router.get('/traffic', (req, res) => {
    const after = afterOf(req);
    if (after === undefined) return void res.status(400).type('text/plain').send('bad "after"');
    res.set('cache-control', 'no-store').json({
      capacity: traffic.capacity,
      total: traffic.total,
      records: traffic.records(after).reverse(),
    });
  });

  router.get('/traffic/stream', (req, res) => {
    const after = afterOf(req);
    if (after === undefined) return void res.status(400).type('text/plain').send('bad "after"');
    if (req.method === 'HEAD') return void res.status(200).type('text/event-stream').end();
    // One client must not take every slot from the others.
    const client = clientAddress(
      req.headers,
      req.socket.remoteAddress,
      options.clientAddressHeader,
    );
    const held = byClient.get(client) ?? 0;
    if (open.size >= maxStreams || held >= perClient) {
      res.status(503).set('retry-after', '5').type('text/plain');
      const limit = held >= perClient ? `${perClient} per client` : `${maxStreams}`;
      return void res.send(`at most ${limit} traffic streams at once`);
    }
    open.add(res);
    byClient.set(client, held + 1);
    streamTraffic(traffic, res, after);
    res.once('close', () => {
      open.delete(res);
      const left = (byClient.get(client) ?? 1) - 1;
      if (left > 0) byClient.set(client, left);
      else byClient.delete(client);
    });
  });

  return {
    router,
    get streams() {
      return open.size;
    },
    close: () => {
      for (const res of open) res.end();
    },
  };
}
