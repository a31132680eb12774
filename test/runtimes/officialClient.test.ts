import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { startRuntimeFixture, type Runtime } from './support/runtimeFixture.js';

// Issue 16, done-when 1: the official v2 client, pinned to 2026-07-28 (MRTR), against the
// conformance fixture served through the fetch handler on Bun, Deno and workerd (miniflare).
const RUNTIMES: readonly Runtime[] = ['bun', 'deno', 'workerd'];

for (const runtime of RUNTIMES) {
  describe(`@modelcontextprotocol/client 2.x against the fixture on ${runtime}`, () => {
    it('discovers, streams progress and answers MRTR input requests over rounds', async () => {
      await using fixture = await startRuntimeFixture(runtime);
      const client = new Client(
        { name: `runtime-${runtime}`, version: '1.0.0' },
        {
          capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
          versionNegotiation: { mode: { pin: '2026-07-28' } },
        },
      );
      client.setRequestHandler('elicitation/create', async (request) => {
        const content: Record<string, string> = request.params.message.includes('color')
          ? { color: 'blue' }
          : { name: 'Alice' };
        return { action: 'accept', content };
      });
      client.setRequestHandler('sampling/createMessage', async () => ({
        role: 'assistant',
        model: 'test-model',
        content: { type: 'text', text: 'Hello there!' },
      }));
      client.setRequestHandler('roots/list', async () => ({
        roots: [{ uri: 'file:///test/root', name: 'Test Root' }],
      }));
      await client.connect(new StreamableHTTPClientTransport(fixture.url));
      try {
        expect(client.getProtocolEra()).toBe('modern');
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toContain('test_simple_text');

        const progress: number[] = [];
        const streamed = await client.callTool(
          { name: 'test_tool_with_progress', arguments: {} },
          { onprogress: (update) => progress.push(update.progress) },
        );
        expect(streamed.content).toEqual([
          { type: 'text', text: 'Tool with progress executed successfully' },
        ]);
        expect(progress).toEqual([0, 50, 100]);

        const multi = await client.callTool({
          name: 'test_input_required_result_multiple_inputs',
          arguments: {},
        });
        expect(multi.content).toEqual([
          { type: 'text', text: 'Name: Alice; greeting: Hello there!; roots: 1' },
        ]);
      } finally {
        await client.close();
      }
    });
  });
}
