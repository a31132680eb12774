import { ConfigurationError, type OAuthResourceOptions } from '@rondo/core';
import { dpopProofVerifier } from './dpop.js';
import { introspectionVerifier } from './introspection.js';
import { jwksVerifier } from './jwks.js';

/**
 * The `--auth-*` flags shared by Rondo's command-line servers (`rondo-logtalk`, the demo), each also
 * read from a `RONDO_AUTH_*` variable, for users who write no Node code: a JWKS or an introspection
 * endpoint, the issuer clients are sent to, and the resource (the canonical MCP URL, also the
 * audience tokens must name).
 */

/** The flags in `node:util` `parseArgs` form, to spread into a command's options. */
export const AUTH_FLAGS = {
  'auth-jwks': { type: 'string' },
  'auth-issuer': { type: 'string' },
  'auth-resource': { type: 'string' },
  'auth-introspection': { type: 'string' },
  'auth-client-id': { type: 'string' },
  'auth-client-secret': { type: 'string' },
  'auth-scopes': { type: 'string' },
  'auth-dpop': { type: 'string' },
} as const;

/** The flag, its variable, and what it is, for help texts. */
const FLAGS: readonly [flag: keyof typeof AUTH_FLAGS, variable: string][] = [
  ['auth-jwks', 'RONDO_AUTH_JWKS'],
  ['auth-issuer', 'RONDO_AUTH_ISSUER'],
  ['auth-resource', 'RONDO_AUTH_RESOURCE'],
  ['auth-introspection', 'RONDO_AUTH_INTROSPECTION'],
  ['auth-client-id', 'RONDO_AUTH_CLIENT_ID'],
  ['auth-client-secret', 'RONDO_AUTH_CLIENT_SECRET'],
  ['auth-scopes', 'RONDO_AUTH_SCOPES'],
  ['auth-dpop', 'RONDO_AUTH_DPOP'],
];

/** The help text of the flags, indented as the commands' help is. */
export const AUTH_FLAGS_HELP = `Authorization (http, ws; each flag also as its variable):
  --auth-resource URL  the canonical URL of this MCP endpoint (https://mcp.example.com/mcp):
                       what clients ask tokens for, and the audience tokens must name.
                       RONDO_AUTH_RESOURCE. Given with either verifier below, every request
                       needs a bearer token (401 without one).
  --auth-issuer ISS    the identity provider's issuer, exactly as its metadata writes it;
                       clients are sent there. RONDO_AUTH_ISSUER.
  --auth-jwks URL      verify JWT access tokens with the provider's key set (jwks_uri).
                       RONDO_AUTH_JWKS.
  --auth-introspection URL
                       or ask the provider about each token (RFC 7662), as the client
                       --auth-client-id (RONDO_AUTH_CLIENT_ID) with the secret
                       RONDO_AUTH_CLIENT_SECRET (--auth-client-secret: visible to other users).
                       RONDO_AUTH_INTROSPECTION.
  --auth-scopes S1,S2  scopes every request needs (403 insufficient_scope without them).
                       RONDO_AUTH_SCOPES.
  --auth-dpop MODE     DPoP-bound tokens (RFC 9449): required (bearer tokens refused) or
                       allowed (both). Without it only bearer tokens; a token bound to a key
                       (cnf.jkt) is never accepted as a bearer token. RONDO_AUTH_DPOP.`;

/** What the `--auth-*` flags (or variables) said, checked. */
export interface AuthFlagSettings {
  resource: string;
  issuer: string;
  verifier:
    | { kind: 'jwks'; jwksUrl: string }
    | { kind: 'introspection'; endpoint: string; clientId: string; clientSecret: string };
  requiredScopes: string[];
  /** DPoP-bound tokens: required, allowed, or (undefined) bearer tokens only. */
  dpop?: 'required' | 'allowed';
}

/**
 * Reads the `--auth-*` values of a parsed command line, each flag before its `RONDO_AUTH_*`
 * variable (an empty variable counts as unset). Undefined when none is given; a
 * `ConfigurationError` naming what is missing or wrong otherwise.
 */
export function readAuthFlags(
  values: Readonly<Record<string, unknown>>,
  env: Readonly<Record<string, string | undefined>>,
): AuthFlagSettings | undefined {
  const given = new Map<string, string>();
  for (const [flag, variable] of FLAGS) {
    const value = values[flag];
    const text = typeof value === 'string' ? value : env[variable] || undefined;
    if (text !== undefined) given.set(flag, text);
  }
  if (given.size === 0) return undefined;
  const name = (flag: string) =>
    `--auth-${flag} (${FLAGS.find(([f]) => f === `auth-${flag}`)![1]})`;
  const need = (flag: string): string => {
    const value = given.get(`auth-${flag}`);
    if (value === undefined) throw new ConfigurationError(`authorization needs ${name(flag)}`);
    return value;
  };
  const resource = url(need('resource'), name('resource'));
  const issuer = need('issuer');
  const jwks = given.get('auth-jwks');
  const introspection = given.get('auth-introspection');
  if ((jwks === undefined) === (introspection === undefined))
    throw new ConfigurationError(
      `authorization needs one way to verify tokens: ${name('jwks')} or ${name('introspection')}`,
    );
  const verifier: AuthFlagSettings['verifier'] =
    jwks !== undefined
      ? { kind: 'jwks', jwksUrl: url(jwks, name('jwks')) }
      : {
          kind: 'introspection',
          endpoint: url(introspection!, name('introspection')),
          clientId: need('client-id'),
          clientSecret: need('client-secret'),
        };
  const scopes = (given.get('auth-scopes') ?? '')
    .split(',')
    .map((scope) => scope.trim())
    .filter((scope) => scope !== '');
  const dpop = given.get('auth-dpop');
  if (dpop !== undefined && dpop !== 'required' && dpop !== 'allowed')
    throw new ConfigurationError(`${name('dpop')} must be required or allowed, got "${dpop}"`);
  return { resource, issuer, verifier, requiredScopes: scopes, ...(dpop ? { dpop } : {}) };
}

/** The resource-server options (`serve({ auth })`) the settings describe, with their verifier. */
export function authFromFlags(settings: AuthFlagSettings): OAuthResourceOptions {
  const { resource, issuer, verifier } = settings;
  return {
    resource,
    authorizationServers: [issuer],
    ...(settings.requiredScopes.length > 0 ? { requiredScopes: settings.requiredScopes } : {}),
    ...(settings.dpop ? { dpop: { mode: settings.dpop, proofs: dpopProofVerifier() } } : {}),
    verifyToken:
      verifier.kind === 'jwks'
        ? jwksVerifier({ issuer, audience: resource, jwksUrl: verifier.jwksUrl })
        : introspectionVerifier({
            endpoint: verifier.endpoint,
            clientId: verifier.clientId,
            clientSecret: verifier.clientSecret,
            audience: resource,
            issuer,
          }),
  };
}

function url(text: string, what: string): string {
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw new ConfigurationError(`${what} must be an absolute URL, got "${text}"`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new ConfigurationError(`${what} must be an http(s) URL, got "${text}"`);
  return text;
}
