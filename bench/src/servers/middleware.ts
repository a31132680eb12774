import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import type { RondoServer } from '@rondo/core';
import { tracing } from '@rondo/otel';

/** The middleware a Rondo contender runs with: none, one that only calls `next()`, or tracing. */
export type MiddlewareKind = 'none' | 'noop' | 'otel';

/**
 * Adds the middleware under test. `otel` is `@rondo/otel`'s `tracing()` with what an SDK would
 * register (the AsyncLocalStorage context manager, the W3C propagator) and a tracer provider with
 * no span processor: every span is made, recorded and dropped, so the cost measured is the
 * middleware's and the SDK's, not an exporter's.
 */
export function addMiddleware(server: RondoServer, kind: MiddlewareKind): void {
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
  }
}

/** The `--middleware` argument, checked. */
export function middlewareKind(value: string): MiddlewareKind {
  if (value === 'none' || value === 'noop' || value === 'otel') return value;
  throw new Error(`--middleware must be none, noop or otel, not ${value}`);
}
