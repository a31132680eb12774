import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import { createEndpoint, createServer, type Endpoint } from '@rondo/core';
import { createPrologProvider } from '@rondo/logtalk-bridge';
import { createRedisState, type RedisState } from '@rondo/redis';
import { serve as serveFetchOnNode } from '@hono/node-server';
import { createFetchHandler, mcpRouter, serveHttp } from '@rondo/transport-http';
import { serveStdio } from '@rondo/transport-stdio';
import { serveWebSocket } from '@rondo/transport-ws';
import { argument, reportReady, type CounterSource } from './control.js';
import { addMiddleware, middlewareKind, type MiddlewareKind } from './middleware.js';
import { addNativeTools } from './nativeTools.js';
import { startBenchRedis } from './redisServer.js';

/**
 * Rondo under test: one endpoint speaking both eras, with the TypeScript tools (`native`) or the
 * Prolog echo tool through the bridge (`bridge`, two workers unless `--workers` says), on one
 * transport.
 *
 *   node rondo.js --transport http-node|http-express|http-fetch|stdio|ws [--provider native|bridge] [--tools N]
 *                 [--middleware none|noop|otel|ratelimit|ratelimit-redis|cache|sizecap|timeout]
 *                 [--redis own|URL] [--workers N]
 *
 * `--redis` keeps the shared state (sessions, event logs, changes, tasks) in Redis: `own` starts a
 * redis-server for this process alone, a URL joins one other replicas use too.
 */

const ECHO_PL = fileURLToPath(new URL('../../prolog/echo.pl', import.meta.url));

async function buildEndpoint(
  provider: string,
  fillers: number,
  middleware: MiddlewareKind,
  shared: RedisState | undefined,
  workers: number,
): Promise<Endpoint> {
  const server = createServer({
    ...(shared ? { shared } : {}),
    name: 'rondo-bench',
    version: '1.0.0',
    // The tools/list scenario compares one full list against the SDK's single page.
    pageSize: Math.max(100, fillers + 2),
    log: (level, message) => level === 'error' && process.stderr.write(`${message}\n`),
  });
  if (provider === 'bridge') {
    server.provider(await createPrologProvider({ files: [ECHO_PL], workers }));
  } else {
    // The cache contender's echo is read-only, so each call after the first is a cache hit.
    addNativeTools(server, fillers, middleware === 'cache');
  }
  addMiddleware(server, middleware, shared);
  const endpoint = createEndpoint(server, {
    modern: modernEra({ alsoSupported: ['2025-11-25', '2025-06-18'] }),
    legacy: legacyEra(),
  });
  await endpoint.ready();
  return endpoint;
}

async function serveExpress(endpoint: Endpoint): Promise<number> {
  const app = express();
  app.use(mcpRouter(endpoint));
  const server = createHttpServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** The fetch handler on Node, through `@hono/node-server` (the usual bridge from node:http). */
async function serveFetch(endpoint: Endpoint): Promise<number> {
  const handler = createFetchHandler(endpoint, { keepAliveMs: 0 });
  const server = serveFetchOnNode({
    fetch: (request) => handler(request),
    port: 0,
    hostname: '127.0.0.1',
  });
  await new Promise((resolve) => server.once('listening', resolve));
  return (server.address() as AddressInfo).port;
}

/** The Redis state `--redis` asks for, with a redis-server of its own for `own`. */
async function connectRedis(where: string): Promise<RedisState | undefined> {
  if (where === '') return undefined;
  if (where !== 'own') return createRedisState({ url: where });
  const redis = await startBenchRedis();
  // The default SIGTERM action would skip 'exit' handlers and leave redis-server running.
  process.once('SIGTERM', () => process.exit(0));
  process.once('exit', () => redis.stop());
  return createRedisState({ url: redis.url });
}

async function serveOn(transport: string, endpoint: Endpoint, counters: CounterSource) {
  switch (transport) {
    case 'stdio':
      serveStdio(endpoint);
      return reportReady({}, counters);
    case 'ws': {
      const handle = await serveWebSocket(endpoint, { keepAlive: false });
      return reportReady({ port: handle.port, path: '/ws' }, counters);
    }
    case 'http-express':
      return reportReady({ port: await serveExpress(endpoint), path: '/mcp' }, counters);
    case 'http-fetch':
      return reportReady({ port: await serveFetch(endpoint), path: '/mcp' }, counters);
    default: {
      const handle = await serveHttp(endpoint, { keepAliveMs: 0 });
      return reportReady({ port: handle.port, path: '/mcp' }, counters);
    }
  }
}

async function main(): Promise<void> {
  const redis = await connectRedis(argument('redis', ''));
  const endpoint = await buildEndpoint(
    argument('provider', 'native'),
    Number(argument('tools', '0')),
    middlewareKind(argument('middleware', 'none')),
    redis,
    Number(argument('workers', '2')),
  );
  const counters: CounterSource = async () =>
    redis ? { redisCommands: redis.stats().commands } : {};
  await serveOn(argument('transport', 'http-node'), endpoint, counters);
}

await main();
