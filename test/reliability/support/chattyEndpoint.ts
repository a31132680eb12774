import { legacyEra } from '@rondo/adapter-2025';
import { createEndpoint, createServer, type Endpoint } from '@rondo/core';
import { text } from '@rondo/protocol';

/**
 * A legacy endpoint whose `chatty` tool streams `events` progress notifications of `eventKib` KiB
 * each before its answer: one large finished SSE stream to replay. Ready when it resolves.
 */
export async function chattyEndpoint(
  name: string,
  events: number,
  eventKib: number,
): Promise<Endpoint> {
  const mcp = createServer({ name, version: '1.0.0', log: () => undefined });
  mcp.tool('chatty', { input: { type: 'object' } }, (_args, ctx) => {
    for (let step = 1; step <= events; step += 1)
      ctx.progress(step, events, String(step % 10).repeat(eventKib * 1024));
    return text('done');
  });
  const endpoint = createEndpoint(mcp, { legacy: legacyEra() });
  await endpoint.ready();
  return endpoint;
}
