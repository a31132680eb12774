import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runReadmeExample } from '@rondo/test-support/readmeExample';

describe('README', () => {
  it('runs its example: one span continuing the trace of params._meta', async () => {
    const output = await runReadmeExample(fileURLToPath(new URL('..', import.meta.url)));
    const [result, span, attributes] = output.trim().split('\n');
    expect(JSON.parse(result!)).toEqual([{ type: 'text', text: 'Sunny in Paris' }]);
    expect(span).toBe(
      'tools/call get_weather in trace 4bf92f3577b34da6a3ce929d0e0e4736, under 00f067aa0ba902b7',
    );
    expect(JSON.parse(attributes!)).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'get_weather',
      'jsonrpc.request.id': '1',
      'mcp.protocol.version': '2026-07-28',
    });
  });
});
