import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '@rondo/core';
import { AUTH_FLAGS_HELP, authFromFlags, readAuthFlags } from '../src/index.js';

const JWKS = {
  'auth-resource': 'https://mcp.example.com/mcp',
  'auth-issuer': 'https://sso.example.com/realms/tools',
  'auth-jwks': 'https://sso.example.com/realms/tools/protocol/openid-connect/certs',
};

describe('readAuthFlags', () => {
  it('is undefined without any flag or variable (empty variables count as unset)', () => {
    expect(readAuthFlags({}, {})).toBeUndefined();
    expect(readAuthFlags({}, { RONDO_AUTH_JWKS: '', RONDO_AUTH_ISSUER: '' })).toBeUndefined();
  });

  it('reads a JWKS setup from flags, each flag before its variable', () => {
    expect(
      readAuthFlags(
        { ...JWKS, 'auth-scopes': 'mcp, tools:read' },
        { RONDO_AUTH_ISSUER: 'https://ignored.example' },
      ),
    ).toEqual({
      resource: JWKS['auth-resource'],
      issuer: JWKS['auth-issuer'],
      verifier: { kind: 'jwks', jwksUrl: JWKS['auth-jwks'] },
      requiredScopes: ['mcp', 'tools:read'],
    });
  });

  it('reads an introspection setup from the environment alone', () => {
    expect(
      readAuthFlags(
        {},
        {
          RONDO_AUTH_RESOURCE: 'https://mcp.example.com/mcp',
          RONDO_AUTH_ISSUER: 'https://sso.example.com',
          RONDO_AUTH_INTROSPECTION: 'https://sso.example.com/introspect',
          RONDO_AUTH_CLIENT_ID: 'mcp-server',
          RONDO_AUTH_CLIENT_SECRET: 's3cret',
        },
      ),
    ).toMatchObject({
      verifier: {
        kind: 'introspection',
        endpoint: 'https://sso.example.com/introspect',
        clientId: 'mcp-server',
        clientSecret: 's3cret',
      },
      requiredScopes: [],
    });
  });

  it.each([
    [
      { 'auth-jwks': JWKS['auth-jwks'] },
      'authorization needs --auth-resource (RONDO_AUTH_RESOURCE)',
    ],
    [
      { ...JWKS, 'auth-issuer': undefined },
      'authorization needs --auth-issuer (RONDO_AUTH_ISSUER)',
    ],
    [
      { ...JWKS, 'auth-introspection': 'https://sso.example.com/introspect' },
      'authorization needs one way to verify tokens: --auth-jwks (RONDO_AUTH_JWKS) or --auth-introspection (RONDO_AUTH_INTROSPECTION)',
    ],
    [
      { ...JWKS, 'auth-jwks': undefined, 'auth-introspection': 'https://sso.example.com/i' },
      'authorization needs --auth-client-id (RONDO_AUTH_CLIENT_ID)',
    ],
    [
      { ...JWKS, 'auth-resource': 'mcp.example.com/mcp' },
      '--auth-resource (RONDO_AUTH_RESOURCE) must be an absolute URL, got "mcp.example.com/mcp"',
    ],
    [
      { ...JWKS, 'auth-jwks': 'file:///keys.json' },
      '--auth-jwks (RONDO_AUTH_JWKS) must be an http(s) URL, got "file:///keys.json"',
    ],
  ])('refuses %o: %s', (values, message) => {
    const failure = (() => {
      try {
        readAuthFlags(values, {});
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(failure).toBeInstanceOf(ConfigurationError);
    expect((failure as Error).message).toBe(message);
  });

  it('makes the resource-server options with their verifier', () => {
    const options = authFromFlags(readAuthFlags({ ...JWKS, 'auth-scopes': 'mcp' }, {})!);
    expect(options).toMatchObject({
      resource: JWKS['auth-resource'],
      authorizationServers: [JWKS['auth-issuer']],
      requiredScopes: ['mcp'],
    });
    expect(typeof options.verifyToken).toBe('function');
    expect(AUTH_FLAGS_HELP).toContain('RONDO_AUTH_INTROSPECTION');
  });

  it('turns DPoP on with --auth-dpop required or allowed (RONDO_AUTH_DPOP), and refuses other modes', () => {
    for (const mode of ['required', 'allowed'] as const) {
      const settings = readAuthFlags({ ...JWKS }, { RONDO_AUTH_DPOP: mode })!;
      expect(settings.dpop).toBe(mode);
      const options = authFromFlags(settings);
      expect(options.dpop?.mode).toBe(mode);
      expect(options.dpop?.proofs.algorithms).toContain('ES256');
    }
    expect(authFromFlags(readAuthFlags({ ...JWKS }, {})!).dpop).toBeUndefined();
    expect(() => readAuthFlags({ ...JWKS, 'auth-dpop': 'sometimes' }, {})).toThrow(
      'must be required or allowed, got "sometimes"',
    );
    expect(AUTH_FLAGS_HELP).toContain('--auth-dpop MODE');
  });
});
