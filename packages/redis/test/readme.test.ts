import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runReadmeExample } from '@rondo/test-support/readmeExample';
import { useRedisServer } from './support/harness.js';

describe('README', () => {
  const redis = useRedisServer();

  it('runs its example: a session opened on one replica calls a tool on the other', async () => {
    process.env.REDIS_URL = redis().url;
    try {
      const output = await runReadmeExample(fileURLToPath(new URL('..', import.meta.url)));
      expect(output.trim()).toBe('Sunny in Oslo');
    } finally {
      delete process.env.REDIS_URL;
    }
  });
});
