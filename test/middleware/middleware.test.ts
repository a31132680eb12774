import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERAS, EraClient, type EraName } from '../contract/support/eras.js';
import { TRANSPORTS, type TransportName } from '../contract/support/transports.js';
import {
  bothEras,
  middlewareServer,
  serveAndConnect,
  type MiddlewareServer,
  type Served,
} from './middlewareServer.js';

/** The text of a tool result's first content block. */
function firstText(result: Record<string, unknown>): unknown {
  return (result.content as { text?: unknown }[] | undefined)?.[0]?.text;
}

/** Calls the round-hook tool to completion in the client's era, answering "red". */
async function pickRed(client: EraClient): Promise<Record<string, unknown>> {
  if (client.era === 'legacy') return client.call('tools/call', { name: 'colour' });
  const first = await client.call('tools/call', { name: 'colour' });
  expect(first.resultType).toBe('input_required');
  return client.call('tools/call', {
    name: 'colour',
    inputResponses: { colour: { action: 'accept', content: { colour: 'red' } } },
    requestState: first.requestState as string,
  });
}

function describeMiddleware(transport: TransportName, era: EraName): void {
  describe(`middleware for a ${era} client over ${transport}`, () => {
    let fixture: MiddlewareServer;
    let served: Served;
    let client: EraClient;
    beforeAll(async () => {
      fixture = middlewareServer();
      served = await serveAndConnect(bothEras(fixture.server), transport);
      client = new EraClient(era, served.driver);
      client.handle('elicitation/create', () => ({
        action: 'accept',
        content: { colour: 'red' },
      }));
      await client.start();
    });
    afterAll(async () => {
      await served?.close();
    });

    it('runs around the handler, first registered outermost, and sees the era', async () => {
      fixture.order.length = 0;
      const result = await client.call('tools/call', { name: 'echo', arguments: { text: 'hi' } });
      expect(firstText(result)).toBe('hi');
      expect(fixture.order).toEqual(['outer>', 'inner>', 'inner<', 'outer<']);
      expect(fixture.seen.at(-1)).toEqual({ method: 'tools/call', era, round: 1, tool: 'echo' });
    });

    it('short-circuits with its own result: the handler does not run', async () => {
      const result = await client.call('tools/call', { name: 'cached' });
      expect(firstText(result)).toBe('answered by middleware');
    });

    it('refuses a call with the McpError it throws, code and data kept', async () => {
      const answer = await client.request('tools/call', { name: 'blocked' });
      expect(answer.error).toEqual({
        code: -32602,
        message: 'blocked by policy',
        data: { tool: 'blocked' },
      });
    });

    it('turns a plain throw into -32603 naming the failure, and keeps serving', async () => {
      const answer = await client.request('tools/call', { name: 'crash' });
      expect(answer.error?.code).toBe(-32603);
      expect(answer.error?.message).toContain('a middleware failed: the policy crashed');
      expect(
        firstText(await client.call('tools/call', { name: 'echo', arguments: { text: 'ok' } })),
      ).toBe('ok');
    });

    it('filters the descriptors of tools/list', async () => {
      const result = await client.call('tools/list');
      const names = (result.tools as { name: string }[]).map((tool) => tool.name);
      expect(names).toEqual(['echo', 'blocked', 'cached', 'crash', 'colour']);
    });

    it('sees each round of a round-hook request as a call, with its round number', async () => {
      const from = fixture.seen.length;
      expect(firstText(await pickRed(client))).toBe('picked "red"');
      const rounds = fixture.seen.slice(from).filter((call) => call.tool === 'colour');
      expect(rounds.map((call) => call.round)).toEqual([1, 2]);
      expect(rounds.every((call) => call.era === era)).toBe(true);
    });

    it('sees methods without a neutral result too (the handshake, discovery)', async () => {
      if (era === 'modern') await client.call('server/discover');
      const method = era === 'legacy' ? 'initialize' : 'server/discover';
      expect(fixture.seen.some((call) => call.method === method && call.era === era)).toBe(true);
    });

    it('writes only valid wire for the revision', () => {
      expect(client.problems()).toEqual([]);
    });
  });
}

for (const transport of TRANSPORTS) for (const era of ERAS) describeMiddleware(transport, era);
