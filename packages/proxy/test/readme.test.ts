import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runReadmeExample } from '@rondo/test-support/readmeExample';

describe('README', () => {
  it('runs its example: a legacy upstream asks, the modern client answers a round', async () => {
    const output = await runReadmeExample(fileURLToPath(new URL('..', import.meta.url)));
    expect(output.trim().split('\n')).toEqual(['asked in the modern era', 'Hello, Ada!']);
  });
});
