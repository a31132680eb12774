import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runReadmeExample } from '@rondo/test-support/readmeExample';

describe('README', () => {
  it('runs its example: no token, a token for another resource, a good token', async () => {
    const output = await runReadmeExample(fileURLToPath(new URL('..', import.meta.url)), 30_000);
    const metadata =
      'resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"';
    expect(output.trim().split('\n')).toEqual([
      `401 Bearer ${metadata}`,
      `401 Bearer error="invalid_token", error_description="the token was not issued for this resource (aud)", ${metadata}`,
      '200 service-a via report-job',
    ]);
  });
});
