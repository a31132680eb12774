import { context, propagation, trace, type TracerProvider } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

/** A tracer provider that keeps every ended span in memory. */
export interface SpanRecorder {
  provider: TracerProvider;
  /** The spans ended so far, oldest first. */
  spans(): ReadableSpan[];
  /** The ended spans named `name`. */
  named(name: string): ReadableSpan[];
  reset(): void;
}

let registered = false;

/**
 * Registers, once per test file, what an app's OpenTelemetry SDK would: the AsyncLocalStorage
 * context manager and the W3C trace-context propagator; returns a recorder of its own.
 */
export function recordSpans(): SpanRecorder {
  if (!registered) {
    registered = true;
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  }
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return {
    provider,
    spans: () => exporter.getFinishedSpans(),
    named: (name) => exporter.getFinishedSpans().filter((span) => span.name === name),
    reset: () => exporter.reset(),
  };
}

/** A W3C `traceparent` of a made-up client span, and its ids. */
export function clientTraceparent(seed = 1): {
  traceparent: string;
  traceId: string;
  spanId: string;
} {
  const traceId = seed.toString(16).padStart(32, 'a');
  const spanId = seed.toString(16).padStart(16, 'b');
  return { traceparent: `00-${traceId}-${spanId}-01`, traceId, spanId };
}

/** The id of a span's parent, if it has one. */
export function parentSpanId(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

/** The active span's ids where this runs (undefined outside a span). */
export function activeSpanId(): string | undefined {
  return trace.getActiveSpan()?.spanContext().spanId;
}
