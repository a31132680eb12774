import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { runReadmeExample } from '@rondo/test-support/readmeExample';

describe('README', () => {
  it('runs its example', async () => {
    const output = await runReadmeExample(fileURLToPath(new URL('..', import.meta.url)));
    expect(output.trim()).toBe('add,greet');
  });

  it('runs its key ring example: the newest key seals and names itself', async () => {
    const output = await runReadmeExample(
      fileURLToPath(new URL('..', import.meta.url)),
      20_000,
      'Sealed requestState and its key ring',
    );
    expect(output.trim()).toBe('k2 {"step":1}');
  });

  it('runs its mount example: the mounted tool is offered under the namespace', async () => {
    const output = await runReadmeExample(
      fileURLToPath(new URL('..', import.meta.url)),
      20_000,
      'Mounting servers',
    );
    expect(output.trim()).toBe('weather_get');
  });
});
