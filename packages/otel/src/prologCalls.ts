import { tracingChannel } from 'node:diagnostics_channel';
import {
  context,
  createContextKey,
  SpanKind,
  SpanStatusCode,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { ATTR } from './attributes.js';

/**
 * The tracing channel `@rondo/logtalk-bridge` reports its worker calls on (its
 * `PROLOG_CALL_CHANNEL`). Channels are process-wide by name, so this package needs neither the
 * bridge nor its version: only the name and the message shape below.
 */
export const PROLOG_CALL_CHANNEL = 'rondo:prolog:call';

/** What the bridge publishes for one worker call (its `PrologCallMessage`). */
interface PrologCallMessage {
  readonly method?: unknown;
  readonly target?: unknown;
  readonly workerId?: unknown;
  readonly provider?: unknown;
  readonly error?: unknown;
}

/** The tracer of the request span a context belongs to; set by the middleware around `next()`. */
const REQUEST_TRACER = createContextKey('@rondo/otel request tracer');

/** `context` with the tracer that Prolog calls made inside it should use. */
export function withRequestTracer(active: Context, tracer: Tracer): Context {
  return active.setValue(REQUEST_TRACER, tracer);
}

const open = new WeakMap<object, Span>();
let subscribed = false;

/**
 * Subscribes once per process to the bridge's channel: a worker call made inside a traced request
 * becomes an INTERNAL child span of the request's span, from the moment a worker took it until it
 * answered, with the worker id. Calls outside a traced request (none is active) make no span.
 */
export function observePrologCalls(): void {
  if (subscribed) return;
  subscribed = true;
  tracingChannel<unknown, PrologCallMessage>(PROLOG_CALL_CHANNEL).subscribe({
    start: startSpan,
    // A call that threw synchronously has no async end: its error is set by then.
    end: (message) => {
      if (message.error !== undefined) endSpan(message);
    },
    asyncStart: () => undefined,
    asyncEnd: endSpan,
    error: () => undefined,
  });
}

function startSpan(message: PrologCallMessage): void {
  const active = context.active();
  const tracer = active.getValue(REQUEST_TRACER) as Tracer | undefined;
  if (tracer === undefined) return;
  const method = typeof message.method === 'string' ? message.method : 'call';
  const target = typeof message.target === 'string' ? message.target : undefined;
  const attributes: Record<string, string | number> = { [ATTR.prologMethod]: method };
  if (target !== undefined) attributes[ATTR.prologTarget] = target;
  if (typeof message.workerId === 'number') attributes[ATTR.prologWorkerId] = message.workerId;
  if (typeof message.provider === 'string') attributes[ATTR.prologProvider] = message.provider;
  // Resource URIs stay out of the name, as in the request spans: they are high-cardinality.
  const name =
    target !== undefined && method !== 'resource'
      ? `prolog ${method} ${target}`
      : `prolog ${method}`;
  open.set(message, tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes }, active));
}

function endSpan(message: PrologCallMessage): void {
  const span = open.get(message);
  if (span === undefined) return;
  open.delete(message);
  const failure = message.error;
  if (failure instanceof Error) {
    span.setAttribute(ATTR.errorType, failure.name);
    span.recordException(failure);
    span.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
  } else if (failure !== undefined) {
    span.setAttribute(ATTR.errorType, '_OTHER');
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}
