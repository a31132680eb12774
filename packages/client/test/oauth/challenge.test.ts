import { describe, expect, it } from 'vitest';
import { memoryTokenStore } from '@rondo/client';
import { parseBearerChallenge } from '../../src/oauth/challenge.js';

describe('WWW-Authenticate parsing', () => {
  it('reads the Bearer parameters, quoted or not, among other challenges', () => {
    expect(
      parseBearerChallenge(
        'Basic realm="x", Bearer error=insufficient_scope, scope="a b", resource_metadata="https://r.example/.well-known/oauth-protected-resource/mcp"',
      ),
    ).toEqual({
      error: 'insufficient_scope',
      scope: 'a b',
      resourceMetadata: 'https://r.example/.well-known/oauth-protected-resource/mcp',
    });
  });

  it('unescapes quoted strings and skips token68 credentials', () => {
    expect(parseBearerChallenge('Negotiate abc123==, Bearer scope="say \\"hi\\""')).toEqual({
      scope: 'say "hi"',
    });
  });

  it('finds nothing without a Bearer challenge', () => {
    expect(parseBearerChallenge('DPoP algs="ES256"')).toBeUndefined();
    expect(parseBearerChallenge(null)).toBeUndefined();
    expect(parseBearerChallenge('Bearer')).toEqual({});
  });
});

describe('memoryTokenStore', () => {
  it('keeps at most its bound, dropping the oldest', async () => {
    const store = memoryTokenStore(2);
    for (const name of ['a', 'b', 'c']) {
      await store.setTokens(name, { accessToken: name, tokenType: 'Bearer', issuer: 'i' });
    }
    expect(await store.getTokens('a')).toBeUndefined();
    expect((await store.getTokens('c'))?.accessToken).toBe('c');
  });
});
