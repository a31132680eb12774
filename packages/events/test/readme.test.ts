import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runReadmeExample } from '../../../test/support/readmeExample.js';

describe('README', () => {
  it('runs its example: the event type listed, one build polled, one build pushed', async () => {
    const output = await runReadmeExample(fileURLToPath(new URL('..', import.meta.url)));
    expect(output.trim().split('\n')).toEqual([
      'build_finished poll push',
      'polled main true',
      'pushed main false',
    ]);
  });
});
