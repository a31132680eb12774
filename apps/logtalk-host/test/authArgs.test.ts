import { describe, expect, it } from 'vitest';
import { HELP, parseHostArgs } from '@rondo/logtalk-host';

describe('rondo-logtalk --auth-*', () => {
  it('takes the flags, else RONDO_AUTH_* variables, for http and ws', () => {
    const args = parseHostArgs(
      [
        '--transport',
        'http',
        '--auth-resource',
        'https://mcp.example.com/mcp',
        '--auth-jwks',
        'https://sso.example.com/certs',
        'a.pl',
      ],
      { RONDO_AUTH_ISSUER: 'https://sso.example.com' },
    );
    expect(args.auth).toEqual({
      resource: 'https://mcp.example.com/mcp',
      issuer: 'https://sso.example.com',
      verifier: { kind: 'jwks', jwksUrl: 'https://sso.example.com/certs' },
      requiredScopes: [],
    });
    expect(parseHostArgs(['--transport', 'ws', 'a.pl'], {}).auth).toBeUndefined();
  });

  it('refuses an incomplete setup, and any on stdio, as usage mistakes', () => {
    expect(() =>
      parseHostArgs(['--transport', 'http', '--auth-jwks', 'https://sso.example.com/c', 'a.pl']),
    ).toThrow('authorization needs --auth-resource (RONDO_AUTH_RESOURCE)');
    expect(() =>
      parseHostArgs(['a.pl'], {
        RONDO_AUTH_RESOURCE: 'https://mcp.example.com/mcp',
        RONDO_AUTH_ISSUER: 'https://sso.example.com',
        RONDO_AUTH_JWKS: 'https://sso.example.com/certs',
      }),
    ).toThrow('--auth-* needs --transport http or ws: stdio carries no bearer token');
  });

  it('lists the flags in --help', () => {
    for (const flag of [
      '--auth-jwks',
      '--auth-issuer',
      '--auth-resource',
      '--auth-introspection',
      'RONDO_AUTH_CLIENT_SECRET',
    ])
      expect(HELP).toContain(flag);
  });
});
