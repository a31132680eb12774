import {
  context,
  SpanKind,
  trace,
  type Attributes,
  type TextMapPropagator,
  type TracerProvider,
} from '@opentelemetry/api';
import type { McpCall, Middleware } from '@rondo/core';
import { ATTR } from './attributes.js';
import { recordFailure, recordResult } from './outcome.js';
import { parentOf } from './parent.js';
import { observePrologCalls, withRequestTracer } from './prologCalls.js';

/** The instrumentation scope of the spans. */
export const INSTRUMENTATION_SCOPE = '@rondo/otel';

/** Options of {@link tracing}. */
export interface TracingOptions {
  /** Where the spans go; default the global tracer provider (`trace.setGlobalTracerProvider`). */
  tracerProvider?: TracerProvider;
  /**
   * Reads the trace context of `params._meta` and of the HTTP headers; default the global
   * propagator (`propagation.setGlobalPropagator`, W3C trace context in the Node SDK).
   */
  propagator?: TextMapPropagator;
  /**
   * Names `resources/read` spans `resources/read {uri}`. Off by default: the conventions keep
   * URIs out of span names, as they are high-cardinality (the URI is always an attribute).
   */
  resourceUriInSpanName?: boolean;
  /**
   * Makes each Prolog worker call of `@rondo/logtalk-bridge` a child span of its request's span;
   * default `true`. Needs a context manager (the Node SDK registers one) so the request's context
   * reaches the bridge.
   */
  prologCalls?: boolean;
}

/**
 * OpenTelemetry tracing as Rondo middleware: `server.use(tracing())`. Every call the server's
 * middleware sees (a request, or one round of a multi-round request) becomes one SERVER span
 * named and described after the OpenTelemetry semantic conventions for MCP (`tools/call
 * get_weather`, `mcp.method.name`, `gen_ai.tool.name`, `jsonrpc.request.id`, ...), continuing the
 * trace the client sent in `params._meta` or in the HTTP `traceparent` header. The rest of the
 * chain and the handler run with that span active, so spans made inside (Prolog worker calls
 * among them) are its children. Register it first, so the span covers the other middleware.
 */
export function tracing(options: TracingOptions = {}): Middleware {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(
    INSTRUMENTATION_SCOPE,
  );
  const { propagator, resourceUriInSpanName = false } = options;
  if (options.prologCalls !== false) observePrologCalls();
  return async (call, next) => {
    const { parent, links } = parentOf(call, context.active(), propagator);
    const span = tracer.startSpan(
      spanName(call, resourceUriInSpanName),
      { kind: SpanKind.SERVER, attributes: attributesOf(call), links },
      parent,
    );
    try {
      const result = await context.with(
        withRequestTracer(trace.setSpan(parent, span), tracer),
        next,
      );
      recordResult(span, call, result);
      return result;
    } catch (failure) {
      recordFailure(span, call, failure);
      throw failure;
    } finally {
      span.end();
    }
  };
}

/** `{mcp.method.name} {target}`: the tool or prompt name, or (opted in) the resource URI. */
function spanName(call: McpCall, resourceUri: boolean): string {
  const target = targetOf(call, resourceUri);
  return target === undefined ? call.method : `${call.method} ${target}`;
}

function targetOf(call: McpCall, resourceUri: boolean): string | undefined {
  switch (call.method) {
    case 'tools/call':
    case 'prompts/get':
      return stringParam(call, 'name');
    case 'resources/read':
      return resourceUri ? stringParam(call, 'uri') : undefined;
    default:
      return undefined;
  }
}

function attributesOf(call: McpCall): Attributes {
  const attributes: Attributes = {
    [ATTR.methodName]: call.method,
    [ATTR.requestId]: String(call.id),
    [ATTR.protocolVersion]: call.revision,
    [ATTR.era]: call.era,
    [ATTR.round]: call.round,
  };
  if (call.sessionId !== undefined) attributes[ATTR.sessionId] = call.sessionId;
  switch (call.method) {
    case 'tools/call':
      attributes[ATTR.toolName] = stringParam(call, 'name');
      attributes[ATTR.operationName] = 'execute_tool';
      break;
    case 'prompts/get':
      attributes[ATTR.promptName] = stringParam(call, 'name');
      break;
    case 'resources/read':
    case 'resources/subscribe':
    case 'resources/unsubscribe':
      attributes[ATTR.resourceUri] = stringParam(call, 'uri');
      break;
  }
  return attributes;
}

function stringParam(call: McpCall, name: string): string | undefined {
  const value = call.params[name];
  return typeof value === 'string' ? value : undefined;
}
