import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runReadmeExample } from '@rondo/test-support/readmeExample';

describe('README', () => {
  it('runs its example: three answers, two from the cache, then the rate limit', async () => {
    const output = await runReadmeExample(fileURLToPath(new URL('..', import.meta.url)));
    expect(output.trim().split('\n')).toEqual([
      'Sunny (lookup 1)',
      'Sunny (lookup 1)',
      'Sunny (lookup 1)',
      '-32000 true',
    ]);
  });
});
