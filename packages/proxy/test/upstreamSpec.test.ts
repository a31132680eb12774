import { clientCredentials } from '@rondo/client';
import { describe, expect, it } from 'vitest';
import { proxy } from '../src/index.js';

describe('an upstream spec', () => {
  const authorizer = clientCredentials({ clientId: 'gw', clientSecret: 'secret' });

  it('is refused at proxy() when no connection could use it', () => {
    expect(() => proxy({ url: 'ftp://example.com/mcp' })).toThrow(
      new TypeError('an upstream URL must be http(s):// or ws(s)://, not ftp://example.com/mcp'),
    );
    expect(() => proxy({ url: 'not a url' })).toThrow(TypeError);
    expect(() => proxy({ url: 'wss://example.com/ws', authorizer })).toThrow(
      new TypeError('an authorizer needs an http(s):// upstream URL, not wss://example.com/ws'),
    );
  });

  it('takes an authorizer for an http(s) upstream', () => {
    expect(proxy({ url: 'https://example.com/mcp', authorizer }).name).toBe('upstream');
  });
});
