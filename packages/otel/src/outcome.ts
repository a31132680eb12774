import { SpanStatusCode, type Span } from '@opentelemetry/api';
import type { McpCall, McpResult } from '@rondo/core';
import { toMcpError } from '@rondo/core/internal';
import { ATTR } from './attributes.js';

/** The JSON-RPC code both eras answer an unknown resource with (the era raises it after middleware). */
const RESOURCE_NOT_FOUND = -32002;

/** The round methods, whose `next()` resolves to a round result. */
const ROUND_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);

/**
 * Records how a call that resolved ended: a tool result with `isError` is `error.type =
 * tool_error`, a resource nobody has is the -32002 the client gets; a round method's span says
 * whether the round completed or asked the client for input.
 */
export function recordResult(span: Span, call: McpCall, result: McpResult): void {
  if (!ROUND_METHODS.has(call.method)) return;
  if (result === undefined) {
    if (call.method === 'resources/read')
      failed(span, String(RESOURCE_NOT_FOUND), 'Resource not found');
    return;
  }
  if (!('kind' in result)) return;
  if (result.kind === 'input_required') {
    span.setAttribute(ATTR.resultType, 'input_required');
    return;
  }
  span.setAttribute(ATTR.resultType, 'complete');
  if (call.method !== 'tools/call') return;
  // A plain tool result (a middleware's own answer) counts as complete.
  const toolError = errorText(result.kind === 'complete' ? result.result : result);
  if (toolError !== undefined) {
    span.setAttribute(ATTR.errorType, 'tool_error');
    span.setStatus({ code: SpanStatusCode.ERROR, message: toolError });
  }
}

/**
 * Records a call that threw: the JSON-RPC code the client is answered with becomes `error.type`
 * and `rpc.response.status_code`, its message the status description. A failure that is not a
 * wire error (a bug, a dead worker) is also recorded as an exception event; a call the client
 * cancelled is `error.type = cancelled`, as nobody is answered.
 */
export function recordFailure(span: Span, call: McpCall, failure: unknown): void {
  if (call.cancellation.aborted) {
    span.setAttribute(ATTR.errorType, 'cancelled');
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'The request was cancelled' });
    return;
  }
  const wire = toMcpError(failure);
  if (wire !== failure && failure instanceof Error) span.recordException(failure);
  failed(span, String(wire.code), wire.message);
}

function failed(span: Span, code: string, message: string): void {
  span.setAttribute(ATTR.errorType, code);
  span.setAttribute(ATTR.responseStatusCode, code);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/** The text of a tool result's first `error(E)` item, if it has one (the wire's `isError`). */
function errorText(result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const value = result as ErrorLike & { items?: unknown };
  if (value.kind === 'error') return typeof value.text === 'string' ? value.text : '';
  if (!Array.isArray(value.items)) return undefined;
  const item = (value.items as ErrorLike[]).find((candidate) => candidate?.kind === 'error');
  return item === undefined ? undefined : typeof item.text === 'string' ? item.text : '';
}

interface ErrorLike {
  kind?: unknown;
  text?: unknown;
}
