import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runReadmeExample } from '@rondo/test-support/readmeExample';

describe('README', () => {
  it('runs its example: an OpenAPI operation called as a tool, with its API key', async () => {
    const output = await runReadmeExample(fileURLToPath(new URL('..', import.meta.url)));
    expect(output.trim().split('\n')).toEqual(['getPet', '{"id":7,"name":"Rex"}']);
  });
});
