import {
  isSpanContextValid,
  propagation,
  trace,
  type Context,
  type Link,
  type SpanContext,
  type TextMapGetter,
  type TextMapPropagator,
} from '@opentelemetry/api';
import type { McpCall } from '@rondo/core';

type Carrier = Readonly<Record<string, unknown>>;

/** Reads a request's `params._meta`: only string members are propagation fields. */
const metaGetter: TextMapGetter<Carrier> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/** Reads HTTP headers, which the transport gives with lower-case names. */
const headerGetter: TextMapGetter<Carrier> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key.toLowerCase()];
    return typeof value === 'string' || Array.isArray(value)
      ? (value as string | string[])
      : undefined;
  },
};

/** Where a call's span hangs: its parent context and the other contexts it links to. */
export interface Parentage {
  parent: Context;
  links: Link[];
}

/**
 * The parent of a call's span, after the MCP conventions: the trace context the client put in
 * `params._meta` (`traceparent`, `tracestate`, `baggage`, whatever the propagator reads), else the
 * one of the HTTP request (`traceparent` header), else the ambient context. The contexts not
 * chosen but present (the HTTP request's, an ambient span such as an HTTP server span) become
 * links. Extraction uses `propagator`, or the globally configured one.
 */
export function parentOf(
  call: McpCall,
  ambient: Context,
  propagator: TextMapPropagator | undefined,
): Parentage {
  const fields = propagator ? propagator.fields() : propagation.fields();
  const meta = call.params._meta;
  const fromMeta = isCarrier(meta)
    ? remote(meta, metaGetter, ambient, fields, propagator)
    : undefined;
  const fromHeaders = call.headers
    ? remote(call.headers, headerGetter, ambient, fields, propagator)
    : undefined;
  const chosen = fromMeta ?? fromHeaders;
  if (chosen === undefined) return { parent: ambient, links: [] };
  const links: Link[] = [];
  const ambientSpan = trace.getSpanContext(ambient);
  if (fromHeaders && !sameSpan(fromHeaders.span, chosen.span))
    links.push({ context: fromHeaders.span });
  if (ambientSpan && isSpanContextValid(ambientSpan) && !sameSpan(ambientSpan, chosen.span))
    links.push({ context: ambientSpan });
  return { parent: chosen.context, links };
}

interface Remote {
  context: Context;
  span: SpanContext;
}

/** The context a carrier names, if it names a valid span; the ambient's other values kept. */
function remote(
  carrier: Carrier,
  getter: TextMapGetter<Carrier>,
  ambient: Context,
  fields: readonly string[],
  propagator: TextMapPropagator | undefined,
): Remote | undefined {
  if (!fields.some((field) => getter.get(carrier, field) !== undefined)) return undefined;
  const base = trace.deleteSpan(ambient);
  const context = propagator
    ? propagator.extract(base, carrier, getter)
    : propagation.extract(base, carrier, getter);
  const span = trace.getSpanContext(context);
  return span && isSpanContextValid(span) ? { context, span } : undefined;
}

function isCarrier(value: unknown): value is Carrier {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sameSpan(a: SpanContext, b: SpanContext): boolean {
  return a.traceId === b.traceId && a.spanId === b.spanId;
}
