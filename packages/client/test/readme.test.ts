import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runReadmeExample } from '@rondo/test-support/readmeExample';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('README', () => {
  it('runs its quick start: a call to a server in memory, in the era auto found', async () => {
    const output = await runReadmeExample(packageDir, 30_000, 'Quick start');
    expect(output.trim()).toBe('modern 2026-07-28 1 Sunny in Oslo');
  });

  it('runs its handler example: one elicitation handler serves both eras', async () => {
    const output = await runReadmeExample(packageDir, 30_000, 'Answering what a server asks');
    expect(output.trim().split('\n')).toEqual(['2026-07-28 Hello, Ada!', '2025-11-25 Hello, Ada!']);
  });
});
