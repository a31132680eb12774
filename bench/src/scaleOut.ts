import {
  httpDriver,
  numbered,
  openLegacySession,
  sessionPerConnection,
  single,
} from './load/http.js';
import type { Contender, Scenario } from './scenarios.js';
import { legacyEcho, legacyHeaders, modernEcho, modernHeaders } from './wire.js';

/**
 * Scale-out: the same tools/call against one Rondo process with everything in memory (the
 * baseline), one Rondo process keeping its shared state in a real redis-server, and three such
 * replicas behind the real nginx with the deploy kit's round-robin site. The Redis contenders
 * report the Redis commands they sent, so each slice also yields Redis round trips per request.
 */

const CONNECTIONS = 50;

const SCALE_OUT_CONTENDERS: Contender[] = [
  {
    label: 'Rondo in memory',
    role: 'rondo',
    server: { script: 'rondo', args: ['--transport', 'http-node'] },
  },
  {
    label: 'Rondo on Redis',
    role: 'rondo-redis',
    server: { script: 'rondo', args: ['--transport', 'http-node', '--redis', 'own'] },
  },
  {
    label: '3 on Redis + nginx',
    role: 'rondo-replicas',
    server: { script: 'replicas', args: ['--replicas', '3'] },
  },
];

/**
 * Modern calls: stateless, every request carries its `_meta`; no Redis round trip is needed. The
 * extra contender, three in-memory replicas behind the same nginx, tells what the balancer and the
 * extra processes cost apart from Redis.
 */
const modernOnRedis: Scenario = {
  id: 'http-modern-redis',
  title: `tools/call, modern wire over HTTP (JSON), concurrency ${CONNECTIONS}: memory, Redis, 3 replicas`,
  transport: 'http',
  contenders: [
    ...SCALE_OUT_CONTENDERS,
    {
      label: '3 in memory + nginx',
      role: 'rondo-replicas-memory',
      server: { script: 'replicas', args: ['--replicas', '3', '--redis', 'none'] },
    },
  ],
  bind: async (child) => ({
    run: httpDriver(child, {
      connections: CONNECTIONS,
      requests: single(modernEcho(1), modernHeaders('tools/call', 'echo')),
    }),
    close: async () => undefined,
  }),
};

async function openSession(url: string): Promise<string> {
  const sessionId = await openLegacySession(url);
  if (sessionId === undefined) throw new Error('the server issued no Mcp-Session-Id');
  return sessionId;
}

/**
 * Legacy calls, each connection in an initialized 2025-11-25 session of its own (`Mcp-Session-Id`
 * on each POST), as many clients with one call in flight each: on Redis every request loads its
 * session (one GETEX), on whichever replica nginx picks.
 */
const legacyOnRedis: Scenario = {
  id: 'http-legacy-redis',
  title: `tools/call, legacy wire over HTTP, ${CONNECTIONS} sessions, one call in flight each: memory, Redis, 3 replicas`,
  transport: 'http',
  contenders: SCALE_OUT_CONTENDERS,
  bind: async (child) => {
    const url = child.url('http');
    const sessionIds: string[] = [];
    for (let i = 0; i < CONNECTIONS; i++) sessionIds.push(await openSession(url));
    return {
      run: httpDriver(child, {
        connections: CONNECTIONS,
        requests: sessionPerConnection(legacyEcho, legacyHeaders, sessionIds),
      }),
      close: async () => undefined,
    };
  },
};

/**
 * Legacy calls, all in one session at concurrency 50 (like `http-legacy-session`): concurrent
 * requests of one session that reach the same process share one load of its record.
 */
const legacyOneSessionOnRedis: Scenario = {
  id: 'http-legacy-redis-1-session',
  title: `tools/call, legacy wire over HTTP in one session, concurrency ${CONNECTIONS}: memory, Redis, 3 replicas`,
  transport: 'http',
  contenders: SCALE_OUT_CONTENDERS,
  bind: async (child) => {
    const sessionId = await openSession(child.url('http'));
    return {
      run: httpDriver(child, {
        connections: CONNECTIONS,
        requests: numbered(legacyEcho, legacyHeaders(sessionId)),
      }),
      close: async () => undefined,
    };
  },
};

/** The scale-out scenarios, run after the others. */
export const SCALE_OUT_SCENARIOS: Scenario[] = [
  modernOnRedis,
  legacyOnRedis,
  legacyOneSessionOnRedis,
];
