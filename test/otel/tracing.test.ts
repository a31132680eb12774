import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PROLOG_CALL_CHANNEL as BRIDGE_CHANNEL } from '@rondo/logtalk-bridge';
import { ATTR, PROLOG_CALL_CHANNEL } from '@rondo/otel';
import {
  clientTraceparent,
  parentSpanId,
  recordSpans,
} from '../../packages/otel/test/support/harness.js';
import { ERAS, EraClient, type EraName } from '../contract/support/eras.js';
import type { TransportDriver } from '../contract/support/transports.js';
import { bothEras, serveAndConnect, type Served } from '../middleware/middlewareServer.js';
import { tracedServer, type TracedServer } from './tracedServer.js';

const recorder = recordSpans();
const TRANSPORTS = ['stdio', 'http'] as const;

/** Waits until `count` ended spans match (spans end as the answer goes out). */
async function spansWhere(
  predicate: (span: ReadableSpan) => boolean,
  count = 1,
): Promise<ReadableSpan[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const found = recorder.spans().filter(predicate);
    if (found.length >= count || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const named = (name: string) => (span: ReadableSpan) => span.name === name;

/** Adds `extra` HTTP headers to every message the driver sends while it is set. */
function withExtraHeaders(driver: TransportDriver): Record<string, string> {
  const extra: Record<string, string> = {};
  const send = driver.send.bind(driver);
  driver.send = (message, headers = {}) => send(message, { ...headers, ...extra });
  return extra;
}

function describeTracing(transport: (typeof TRANSPORTS)[number], era: EraName): void {
  describe(`tracing a ${era} client over ${transport}`, () => {
    let traced: TracedServer;
    let served: Served;
    let client: EraClient;
    let extraHeaders: Record<string, string>;
    beforeAll(async () => {
      traced = await tracedServer(recorder);
      served = await serveAndConnect(bothEras(traced.server), transport);
      extraHeaders = withExtraHeaders(served.driver);
      client = new EraClient(era, served.driver);
      client.handle('elicitation/create', () => ({ action: 'accept', content: { colour: 'red' } }));
      await client.start();
    });
    afterAll(async () => {
      await served?.close();
      await traced?.close();
    });
    beforeEach(() => recorder.reset());

    it('makes a tool call one SERVER span "tools/call get_weather" with the MCP attributes', async () => {
      const { id, response } = client.send('tools/call', {
        name: 'get_weather',
        arguments: { city: 'Paris' },
      });
      expect((await response).result).toBeDefined();
      const [span] = await spansWhere(named('tools/call get_weather'));
      expect(span!.kind).toBe(SpanKind.SERVER);
      expect(span!.attributes).toMatchObject({
        [ATTR.methodName]: 'tools/call',
        [ATTR.toolName]: 'get_weather',
        [ATTR.operationName]: 'execute_tool',
        [ATTR.requestId]: String(id),
        [ATTR.protocolVersion]: client.revision,
        [ATTR.era]: era,
        [ATTR.round]: 1,
      });
      expect(span!.status.code).toBe(SpanStatusCode.UNSET);
      if (era === 'legacy' && transport === 'http')
        expect(span!.attributes[ATTR.sessionId]).toMatch(/^[\x21-\x7E]{32,}$/);
      else expect(span!.attributes[ATTR.sessionId]).toBeUndefined();
    });

    it('names other methods by the method alone (tools/list)', async () => {
      await client.call('tools/list');
      const [span] = await spansWhere(named('tools/list'));
      expect(span!.attributes[ATTR.methodName]).toBe('tools/list');
    });

    it('continues the trace of params._meta.traceparent', async () => {
      const caller = clientTraceparent(11);
      await client.call(
        'tools/call',
        { name: 'get_weather', arguments: { city: 'Oslo' } },
        { meta: { traceparent: caller.traceparent, tracestate: 'rojo=00f067aa0ba902b7' } },
      );
      const [span] = await spansWhere(named('tools/call get_weather'));
      expect(span!.spanContext().traceId).toBe(caller.traceId);
      expect(parentSpanId(span!)).toBe(caller.spanId);
      expect(span!.spanContext().traceState?.get('rojo')).toBe('00f067aa0ba902b7');
    });

    if (transport === 'http') {
      it('continues the trace of the HTTP traceparent header, and prefers _meta over it', async () => {
        const header = clientTraceparent(12);
        const meta = clientTraceparent(13);
        extraHeaders.traceparent = header.traceparent;
        try {
          await client.call('tools/call', { name: 'get_weather', arguments: { city: 'Rome' } });
          await client.call(
            'tools/call',
            { name: 'get_weather', arguments: { city: 'Rome' } },
            { meta: { traceparent: meta.traceparent } },
          );
        } finally {
          delete extraHeaders.traceparent;
        }
        const [fromHeader, fromMeta] = await spansWhere(named('tools/call get_weather'), 2);
        expect(parentSpanId(fromHeader!)).toBe(header.spanId);
        expect(parentSpanId(fromMeta!)).toBe(meta.spanId);
        expect(fromMeta!.links.map((link) => link.context.spanId)).toEqual([header.spanId]);
      });
    }

    it('marks an unknown tool (-32602) ERROR with its code and message', async () => {
      const answer = await client.request('tools/call', { name: 'nope' });
      expect(answer.error?.code).toBe(-32602);
      const [span] = await spansWhere(named('tools/call nope'));
      expect(span!.attributes[ATTR.errorType]).toBe('-32602');
      expect(span!.attributes[ATTR.responseStatusCode]).toBe('-32602');
      expect(span!.status).toEqual({ code: SpanStatusCode.ERROR, message: answer.error?.message });
    });

    it('marks a call a later middleware throws for ERROR with the -32603 the client gets', async () => {
      const answer = await client.request('tools/call', { name: 'crash' });
      expect(answer.error?.code).toBe(-32603);
      const [span] = await spansWhere(named('tools/call crash'));
      expect(span!.attributes[ATTR.errorType]).toBe('-32603');
      expect(span!.status.code).toBe(SpanStatusCode.ERROR);
      expect(span!.events.map((event) => event.name)).toEqual(['exception']);
    });

    it('makes one span per round of a round-hook tool, with its round number', async () => {
      let result: Record<string, unknown>;
      if (era === 'legacy') {
        result = await client.call('tools/call', { name: 'colour' });
      } else {
        const first = await client.call('tools/call', { name: 'colour' });
        result = await client.call('tools/call', {
          name: 'colour',
          inputResponses: { colour: { action: 'accept', content: { colour: 'red' } } },
          requestState: first.requestState as string,
        });
      }
      expect(JSON.stringify(result)).toContain('picked \\"red\\"');
      const rounds = await spansWhere(named('tools/call colour'), 2);
      expect(rounds.map((span) => span.attributes[ATTR.round])).toEqual([1, 2]);
      expect(rounds.map((span) => span.attributes[ATTR.resultType])).toEqual([
        'input_required',
        'complete',
      ]);
    });

    it('shows a Prolog tool call as a child span of the request span, with the worker id', async () => {
      const caller = clientTraceparent(14);
      const result = await client.call(
        'tools/call',
        { name: 'forecast', arguments: { City: 'Lima' } },
        { meta: { traceparent: caller.traceparent } },
      );
      expect(JSON.stringify(result)).toContain('Sunny in Lima');
      const [request] = await spansWhere(named('tools/call forecast'));
      const [prolog] = await spansWhere(named('prolog tool forecast'));
      expect(parentSpanId(prolog!)).toBe(request!.spanContext().spanId);
      expect(prolog!.spanContext().traceId).toBe(caller.traceId);
      expect(traced.prolog.workerIds()).toContain(prolog!.attributes[ATTR.prologWorkerId]);
      expect(prolog!.attributes).toMatchObject({
        [ATTR.prologMethod]: 'tool',
        [ATTR.prologTarget]: 'forecast',
        [ATTR.prologProvider]: 'prolog:forecast',
      });
      // The worker's time lies within the request's. The two often end within the same
      // millisecond, below what span timestamps resolve, so the end is judged by the order in
      // which the spans ended (the recorder's order) rather than by their clocks.
      const start = (span: ReadableSpan) => span.startTime[0] * 1e9 + span.startTime[1];
      expect(start(prolog!)).toBeGreaterThanOrEqual(start(request!));
      const ended = recorder.spans();
      expect(ended.indexOf(prolog!)).toBeLessThan(ended.indexOf(request!));
    });

    it('writes only valid wire for the revision', () => {
      expect(client.problems()).toEqual([]);
    });
  });
}

describe('the Prolog call channel', () => {
  it('has the one name in the bridge and in @rondo/otel', () => {
    expect(PROLOG_CALL_CHANNEL).toBe(BRIDGE_CHANNEL);
  });
});

for (const transport of TRANSPORTS) for (const era of ERAS) describeTracing(transport, era);
