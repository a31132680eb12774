import { LazyAbortController } from '@rondo/core/internal';
import { tracingChannel } from 'node:diagnostics_channel';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { beforeEach, describe, expect, it } from 'vitest';
import type { McpCall, McpResult } from '@rondo/core';
import {
  ErrorCode,
  McpError,
  error,
  inputRequest,
  inputRequired,
  formElicitation,
  text,
} from '@rondo/protocol';
import { ATTR, PROLOG_CALL_CHANNEL, tracing } from '../src/index.js';
import { activeSpanId, clientTraceparent, parentSpanId, recordSpans } from './support/harness.js';

const recorder = recordSpans();
beforeEach(() => recorder.reset());

/** A call as the pipeline hands it to middleware. */
function fakeCall(overrides: Partial<McpCall> = {}): McpCall {
  const cancellation = overrides.cancellation ?? new LazyAbortController();
  return {
    method: 'tools/call',
    params: { name: 'get_weather', arguments: { city: 'Paris' } },
    era: 'modern',
    revision: '2026-07-28',
    principal: undefined,
    id: 7,
    cancellation,
    signal: cancellation.signal,
    round: 1,
    headers: undefined,
    sessionId: undefined,
    client: undefined,
    address: undefined,
    stop: () => undefined,
    ...overrides,
  };
}

const middleware = tracing({ tracerProvider: recorder.provider });
const run = (call: McpCall, next: () => Promise<McpResult> = async () => text('sunny')) =>
  middleware(call, next);
const onlySpan = () => {
  const spans = recorder.spans();
  expect(spans).toHaveLength(1);
  return spans[0]!;
};

describe('one SERVER span per call, after the MCP conventions', () => {
  it('names a tool call "tools/call {tool}" and describes it', async () => {
    await run(fakeCall({ sessionId: 'session-1', era: 'legacy', revision: '2025-11-25' }));
    const span = onlySpan();
    expect(span.name).toBe('tools/call get_weather');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.attributes).toEqual({
      [ATTR.methodName]: 'tools/call',
      [ATTR.toolName]: 'get_weather',
      [ATTR.operationName]: 'execute_tool',
      [ATTR.requestId]: '7',
      [ATTR.protocolVersion]: '2025-11-25',
      [ATTR.sessionId]: 'session-1',
      [ATTR.era]: 'legacy',
      [ATTR.round]: 1,
      [ATTR.resultType]: 'complete',
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('names a prompt by its name, and keeps a resource URI out of the name unless asked', async () => {
    await run(fakeCall({ method: 'prompts/get', params: { name: 'summarise' } }), async () => ({
      kind: 'complete',
      result: { kind: 'messages', messages: [] },
    }));
    await run(
      fakeCall({ method: 'resources/read', params: { uri: 'file:///a.txt' } }),
      async () => ({
        kind: 'complete',
        result: { kind: 'contents', contents: [] },
      }),
    );
    await tracing({ tracerProvider: recorder.provider, resourceUriInSpanName: true })(
      fakeCall({ method: 'resources/read', params: { uri: 'file:///b.txt' } }),
      async () => ({ kind: 'complete', result: { kind: 'contents', contents: [] } }),
    );
    const [prompt, resource, named] = recorder.spans();
    expect(prompt!.name).toBe('prompts/get summarise');
    expect(prompt!.attributes[ATTR.promptName]).toBe('summarise');
    expect(resource!.name).toBe('resources/read');
    expect(resource!.attributes[ATTR.resourceUri]).toBe('file:///a.txt');
    expect(named!.name).toBe('resources/read file:///b.txt');
  });

  it('names other methods by the method alone, with a string request id', async () => {
    await run(fakeCall({ method: 'tools/list', params: {}, id: 'req-9' }), async () => ({
      items: [],
    }));
    const span = onlySpan();
    expect(span.name).toBe('tools/list');
    expect(span.attributes[ATTR.requestId]).toBe('req-9');
    expect(span.attributes[ATTR.toolName]).toBeUndefined();
    expect(span.attributes[ATTR.resultType]).toBeUndefined();
  });

  it('marks a round that asks the client for input, with its round number', async () => {
    const asking = inputRequired([
      inputRequest('city', formElicitation('Where?', { type: 'object' })),
    ]);
    await run(fakeCall({ round: 2 }), async () => asking);
    expect(onlySpan().attributes).toMatchObject({
      [ATTR.round]: 2,
      [ATTR.resultType]: 'input_required',
    });
  });

  it('runs the rest of the chain with the span active', async () => {
    let inside: string | undefined;
    await run(fakeCall(), async () => {
      inside = activeSpanId();
      return text('ok');
    });
    expect(inside).toBe(onlySpan().spanContext().spanId);
    expect(activeSpanId()).toBeUndefined();
  });
});

describe('failures', () => {
  it('records a thrown McpError: its code as error.type, its message as the status', async () => {
    const refusal = new McpError(ErrorCode.InvalidParams, 'Unknown tool: nope', { name: 'nope' });
    await expect(run(fakeCall(), () => Promise.reject(refusal))).rejects.toBe(refusal);
    const span = onlySpan();
    expect(span.attributes[ATTR.errorType]).toBe('-32602');
    expect(span.attributes[ATTR.responseStatusCode]).toBe('-32602');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Unknown tool: nope' });
    expect(span.events).toEqual([]);
  });

  it('records a plain throw as the -32603 the client gets, with an exception event', async () => {
    const crash = new Error('the policy crashed');
    await expect(run(fakeCall(), () => Promise.reject(crash))).rejects.toBe(crash);
    const span = onlySpan();
    expect(span.attributes[ATTR.errorType]).toBe('-32603');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.events.map((event) => event.name)).toEqual(['exception']);
  });

  it('records a tool result with isError as error.type tool_error', async () => {
    await run(fakeCall(), async () => ({ kind: 'complete', result: error('no such city') }));
    const span = onlySpan();
    expect(span.attributes[ATTR.errorType]).toBe('tool_error');
    expect(span.attributes[ATTR.responseStatusCode]).toBeUndefined();
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'no such city' });
  });

  it('records an error item among several results, and a middleware’s plain error result', async () => {
    await run(fakeCall(), async () => ({
      kind: 'complete',
      result: { kind: 'results', items: [text('partial'), error('then failed')] },
    }));
    await run(fakeCall(), async () => error('refused by middleware'));
    expect(recorder.spans().map((span) => span.attributes[ATTR.errorType])).toEqual([
      'tool_error',
      'tool_error',
    ]);
  });

  it('records a resource nobody has as the -32002 both eras answer', async () => {
    await run(
      fakeCall({ method: 'resources/read', params: { uri: 'file:///gone' } }),
      async () => undefined,
    );
    expect(onlySpan().attributes[ATTR.errorType]).toBe('-32002');
  });

  it('records a cancelled call as error.type cancelled', async () => {
    const controller = new LazyAbortController();
    const call = fakeCall({ cancellation: controller });
    await expect(
      run(call, async () => {
        controller.abort();
        throw new Error('aborted');
      }),
    ).rejects.toThrow('aborted');
    expect(onlySpan().attributes[ATTR.errorType]).toBe('cancelled');
  });
});

describe('trace continuation', () => {
  it('continues the trace of params._meta.traceparent, tracestate kept', async () => {
    const client = clientTraceparent(1);
    await run(
      fakeCall({
        params: {
          name: 'get_weather',
          _meta: { traceparent: client.traceparent, tracestate: 'rojo=1' },
        },
      }),
    );
    const span = onlySpan();
    expect(span.spanContext().traceId).toBe(client.traceId);
    expect(parentSpanId(span)).toBe(client.spanId);
    expect(span.parentSpanContext?.isRemote).toBe(true);
    expect(span.spanContext().traceState?.get('rojo')).toBe('1');
  });

  it('continues the trace of the HTTP traceparent header', async () => {
    const client = clientTraceparent(2);
    await run(fakeCall({ headers: { traceparent: client.traceparent } }));
    expect(parentSpanId(onlySpan())).toBe(client.spanId);
  });

  it('prefers params._meta over the header, and links the header’s span', async () => {
    const meta = clientTraceparent(3);
    const header = clientTraceparent(4);
    await run(
      fakeCall({
        params: { name: 'get_weather', _meta: { traceparent: meta.traceparent } },
        headers: { traceparent: header.traceparent },
      }),
    );
    const span = onlySpan();
    expect(parentSpanId(span)).toBe(meta.spanId);
    expect(span.links.map((link) => link.context.spanId)).toEqual([header.spanId]);
  });

  it('hangs under the ambient span without a trace context, and links it when one is given', async () => {
    const tracer = recorder.provider.getTracer('test');
    const ambient = tracer.startSpan('POST /mcp');
    const client = clientTraceparent(5);
    await context.with(trace.setSpan(context.active(), ambient), async () => {
      await run(fakeCall());
      await run(fakeCall({ params: { name: 'x', _meta: { traceparent: client.traceparent } } }));
    });
    ambient.end();
    const [plain, continued] = recorder.spans();
    expect(parentSpanId(plain!)).toBe(ambient.spanContext().spanId);
    expect(parentSpanId(continued!)).toBe(client.spanId);
    expect(continued!.links.map((link) => link.context.spanId)).toEqual([
      ambient.spanContext().spanId,
    ]);
  });

  it('ignores a malformed traceparent and starts a new trace', async () => {
    await run(fakeCall({ params: { name: 'x', _meta: { traceparent: 'not-a-traceparent' } } }));
    expect(parentSpanId(onlySpan())).toBeUndefined();
  });

  it('extracts with the propagator it was given instead of the global one', async () => {
    const client = clientTraceparent(6);
    const fields = { fields: () => ['x-parent'], inject: () => undefined };
    const custom = tracing({
      tracerProvider: recorder.provider,
      propagator: {
        ...fields,
        extract: (ctx, carrier, getter) =>
          propagation.extract(ctx, { traceparent: getter.get(carrier, 'x-parent') }),
      },
    });
    await custom(fakeCall({ headers: { 'x-parent': client.traceparent } }), async () => text('ok'));
    expect(parentSpanId(onlySpan())).toBe(client.spanId);
  });
});

describe(`Prolog worker calls on ${PROLOG_CALL_CHANNEL}`, () => {
  const channel = tracingChannel<unknown, object>(PROLOG_CALL_CHANNEL);
  const workerCall = (message: object, outcome: Promise<unknown> = Promise.resolve('ok')) =>
    channel.tracePromise(() => outcome, message);

  it('makes a worker call inside a request a child span with the worker id', async () => {
    await run(fakeCall(), async () => {
      await workerCall({
        method: 'tool',
        target: 'get_weather',
        workerId: 3,
        provider: 'prolog:w',
      });
      return text('ok');
    });
    const [prolog, request] = recorder.spans();
    expect(prolog!.name).toBe('prolog tool get_weather');
    expect(prolog!.kind).toBe(SpanKind.INTERNAL);
    expect(parentSpanId(prolog!)).toBe(request!.spanContext().spanId);
    expect(prolog!.attributes).toEqual({
      [ATTR.prologMethod]: 'tool',
      [ATTR.prologTarget]: 'get_weather',
      [ATTR.prologWorkerId]: 3,
      [ATTR.prologProvider]: 'prolog:w',
    });
  });

  it('records a failed worker call with its error class', async () => {
    class PrologTimeoutError extends Error {
      override readonly name = 'PrologTimeoutError';
    }
    await run(fakeCall(), async () => {
      await workerCall(
        { method: 'tool', workerId: 1 },
        Promise.reject(new PrologTimeoutError('late')),
      ).catch(() => undefined);
      return text('ok');
    });
    const prolog = recorder.spans()[0]!;
    expect(prolog.attributes[ATTR.errorType]).toBe('PrologTimeoutError');
    expect(prolog.status).toEqual({ code: SpanStatusCode.ERROR, message: 'late' });
  });

  it('makes no span for a worker call outside a traced request', async () => {
    await workerCall({ method: 'tool', workerId: 1 });
    expect(recorder.spans()).toEqual([]);
  });
});
