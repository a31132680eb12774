import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { runReadmeExample } from '@rondo/test-support/readmeExample';

describe('the logtalk-host README', () => {
  it(
    'runs its TypeScript example: the bird expert served over HTTP',
    async () => {
      const output = await runReadmeExample(fileURLToPath(new URL('..', import.meta.url)), 30_000);
      expect(output.trim()).toBe("[ 'identify_bird' ]");
    },
    scaled(40_000),
  );
});
