import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import type { RondoServer } from '@rondo/core';
import { tracing } from '@rondo/otel';
import { callTimeout, rateLimit, responseCache, responseSizeCap } from '@rondo/policies';
import type { RedisState } from '@rondo/redis';

/**
 * The middleware a Rondo contender runs with: none, one that only calls `next()`, tracing, or one
 * of the built-in policies of `@rondo/policies` (a rate limit on the memory or the Redis store, a
 * response cache whose every call is a hit, a size cap, a timeout).
 */
export type MiddlewareKind = (typeof KINDS)[number];

const KINDS = [
  'none',
  'noop',
  'otel',
  'ratelimit',
  'ratelimit-redis',
  'cache',
  'sizecap',
  'timeout',
] as const;

/** A limit no bench run reaches: every call is counted, none is refused. */
const UNREACHED = 1e12;

/**
 * Adds the middleware under test. `otel` is `@rondo/otel`'s `tracing()` with what an SDK would
 * register (the AsyncLocalStorage context manager, the W3C propagator) and a tracer provider with
 * no span processor: every span is made, recorded and dropped, so the cost measured is the
 * middleware's and the SDK's, not an exporter's.
 */
export function addMiddleware(
  server: RondoServer,
  kind: MiddlewareKind,
  redis: RedisState | undefined,
): void {
  switch (kind) {
    case 'none':
      return;
    case 'noop':
      server.use((_call, next) => next());
      return;
    case 'otel':
      context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
      propagation.setGlobalPropagator(new W3CTraceContextPropagator());
      server.use(tracing({ tracerProvider: new BasicTracerProvider() }));
      return;
    case 'ratelimit':
      server.use(rateLimit({ limit: UNREACHED, windowMs: 60_000 }));
      return;
    case 'ratelimit-redis':
      if (!redis) throw new Error('--middleware ratelimit-redis needs --redis');
      server.use(rateLimit({ limit: UNREACHED, windowMs: 60_000, store: redis.rateLimits }));
      return;
    case 'cache':
      server.use(responseCache({ server, ttlMs: 3_600_000 }));
      return;
    case 'sizecap':
      server.use(responseSizeCap({ maxChars: 1024 * 1024 }));
      return;
    case 'timeout':
      server.use(callTimeout({ ms: 30_000 }));
      return;
  }
}

/** The `--middleware` argument, checked. */
export function middlewareKind(value: string): MiddlewareKind {
  const kind = KINDS.find((known) => known === value);
  if (kind !== undefined) return kind;
  throw new Error(`--middleware must be one of ${KINDS.join(', ')}, not ${value}`);
}
