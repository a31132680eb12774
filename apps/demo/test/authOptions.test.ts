import { describe, expect, it } from 'vitest';
import { parseDemoOptions, USAGE } from '../src/options.js';

const SETUP = [
  '--auth-resource=https://demo.example.com/mcp',
  '--auth-issuer',
  'https://sso.example.com',
  '--auth-introspection',
  'https://sso.example.com/introspect',
  '--auth-client-id',
  'demo',
];

describe('the demo --auth-*', () => {
  it('takes the flags with RONDO_AUTH_* variables for what is not on the command line', () => {
    expect(parseDemoOptions(SETUP, { RONDO_AUTH_CLIENT_SECRET: 's3cret' }).auth).toEqual({
      resource: 'https://demo.example.com/mcp',
      issuer: 'https://sso.example.com',
      verifier: {
        kind: 'introspection',
        endpoint: 'https://sso.example.com/introspect',
        clientId: 'demo',
        clientSecret: 's3cret',
      },
      requiredScopes: [],
    });
    expect(parseDemoOptions([], {}).auth).toBeUndefined();
  });

  it('refuses a missing secret, a flag without a value, and --stdio', () => {
    expect(() => parseDemoOptions(SETUP, {})).toThrow(
      'authorization needs --auth-client-secret (RONDO_AUTH_CLIENT_SECRET)',
    );
    expect(() => parseDemoOptions(['--auth-issuer'], {})).toThrow('--auth-issuer needs a value');
    expect(() =>
      parseDemoOptions([...SETUP, '--stdio'], { RONDO_AUTH_CLIENT_SECRET: 's3cret' }),
    ).toThrow('--stdio carries no bearer token');
    expect(USAGE).toContain('--auth-jwks URL');
  });
});
