import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runReadmeExample } from '@rondo/test-support/readmeExample';

describe('README', () => {
  it('runs its example: the extension announced, both tools tied to the App, the resource read', async () => {
    const output = await runReadmeExample(fileURLToPath(new URL('..', import.meta.url)));
    expect(output.trim().split('\n')).toEqual([
      '{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}',
      'show_lamp {"resourceUri":"ui://lamp/view.html"}',
      'toggle_lamp {"resourceUri":"ui://lamp/view.html","visibility":["app"]}',
      'text/html;profile=mcp-app {"ui":{"csp":{"connectDomains":["https://api.example.com"]},"prefersBorder":true}}',
    ]);
  });
});
