import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { json, listen, type Listening } from './listen.js';

/** How the test authorization server behaves. */
export interface AuthServerOptions {
  /** Metadata path; default the RFC 8414 root document. */
  metadataPath?: string;
  /** A path prefix of the issuer and its endpoints (`/tenant1`). */
  prefix?: string;
  /** The `issuer` the metadata claims; default the real one. */
  claimedIssuer?: string;
  authMethods?: string[];
  scopesSupported?: string[];
  cimd?: boolean;
  registration?: boolean;
  /** Whether the metadata promises `iss`, and what the redirect carries. */
  issSupported?: boolean;
  issInRedirect?: 'correct' | 'omit' | 'wrong' | 'slash';
  /** Issue refresh tokens. */
  refresh?: boolean;
  /** Access token lifetime in seconds. */
  expiresIn?: number;
  /** Accept `private_key_jwt` assertions checked by this function. */
  verifyAssertion?: (assertion: string, audience: string) => Promise<string | undefined>;
}

/** One request the server saw: its path, query or form fields, and `Authorization` header. */
export interface SeenRequest {
  path: string;
  params: Record<string, string>;
  authorization?: string;
}

/** A running test authorization server. */
export interface TestAuthServer extends Listening {
  issuer: string;
  seen: SeenRequest[];
  /** Access tokens issued, with what they were issued for. */
  tokens: Map<string, { scope: string; resource: string; clientId: string }>;
  /** Registered clients by id. */
  clients: Map<
    string,
    { secret?: string; method: string; body: { token_endpoint_auth_method?: string } }
  >;
}

/**
 * A small but real OAuth 2.1 authorization server on 127.0.0.1: metadata, dynamic registration,
 * an authorization endpoint that redirects at once (no user), and a token endpoint that checks
 * PKCE, client authentication and refresh tokens.
 */
export async function startAuthServer(options: AuthServerOptions = {}): Promise<TestAuthServer> {
  const prefix = options.prefix ?? '';
  const seen: SeenRequest[] = [];
  const tokens: TestAuthServer['tokens'] = new Map();
  const clients: TestAuthServer['clients'] = new Map();
  const codes = new Map<
    string,
    { challenge: string; scope: string; resource: string; clientId: string }
  >();
  const refreshTokens = new Map<string, { scope: string; resource: string; clientId: string }>();
  let issuer = '';
  const issue = (grant: { scope: string; resource: string; clientId: string }) => {
    const accessToken = `at-${randomUUID()}`;
    tokens.set(accessToken, grant);
    const answer: Record<string, unknown> = {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: options.expiresIn ?? 3600,
      ...(grant.scope ? { scope: grant.scope } : {}),
    };
    if (options.refresh) {
      const refreshToken = `rt-${randomUUID()}`;
      refreshTokens.set(refreshToken, grant);
      answer.refresh_token = refreshToken;
    }
    return answer;
  };
  const listening = await listen(async (req, res, body) => {
    const url = new URL(req.url ?? '/', issuer || 'http://127.0.0.1');
    const params = Object.fromEntries(
      req.method === 'POST' && !req.headers['content-type']?.includes('json')
        ? new URLSearchParams(body)
        : url.searchParams,
    );
    seen.push({
      path: url.pathname,
      params,
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
    });
    if (url.pathname === (options.metadataPath ?? '/.well-known/oauth-authorization-server')) {
      return json(res, 200, metadata(options, issuer, prefix));
    }
    if (
      url.pathname === `${prefix}/register` &&
      req.method === 'POST' &&
      options.registration !== false
    ) {
      const registration = JSON.parse(body) as { token_endpoint_auth_method?: string };
      const method = registration.token_endpoint_auth_method ?? 'client_secret_basic';
      const clientId = `client-${randomUUID()}`;
      const secret = method === 'none' ? undefined : `secret-${randomUUID()}`;
      clients.set(clientId, { method, body: registration, ...(secret ? { secret } : {}) });
      return json(res, 201, {
        client_id: clientId,
        ...(secret ? { client_secret: secret } : {}),
        token_endpoint_auth_method: method,
      });
    }
    if (url.pathname === `${prefix}/authorize`) {
      const code = `code-${randomUUID()}`;
      codes.set(code, {
        challenge: params.code_challenge ?? '',
        scope: params.scope ?? '',
        resource: params.resource ?? '',
        clientId: params.client_id ?? '',
      });
      const back = new URL(params.redirect_uri ?? 'http://invalid');
      back.searchParams.set('code', code);
      if (params.state) back.searchParams.set('state', params.state);
      const iss = {
        correct: issuer,
        omit: undefined,
        wrong: 'https://evil.example',
        slash: `${issuer}/`,
      }[options.issInRedirect ?? 'correct'];
      if (iss !== undefined) back.searchParams.set('iss', iss);
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === `${prefix}/token` && req.method === 'POST') {
      const clientId = await authenticate(req, params, clients, options, issuer);
      if (!clientId) return json(res, 401, { error: 'invalid_client' });
      if (params.grant_type === 'authorization_code') {
        const grant = codes.get(params.code ?? '');
        codes.delete(params.code ?? '');
        const verified =
          grant &&
          createHash('sha256')
            .update(params.code_verifier ?? '')
            .digest('base64url') === grant.challenge;
        if (
          !grant ||
          !verified ||
          grant.clientId !== clientId ||
          grant.resource !== params.resource
        ) {
          return json(res, 400, { error: 'invalid_grant' });
        }
        return json(res, 200, issue(grant));
      }
      if (params.grant_type === 'refresh_token') {
        const grant = refreshTokens.get(params.refresh_token ?? '');
        refreshTokens.delete(params.refresh_token ?? '');
        if (!grant || grant.clientId !== clientId)
          return json(res, 400, { error: 'invalid_grant' });
        return json(res, 200, issue(grant));
      }
      if (params.grant_type === 'client_credentials') {
        return json(
          res,
          200,
          issue({ scope: params.scope ?? '', resource: params.resource ?? '', clientId }),
        );
      }
      return json(res, 400, { error: 'unsupported_grant_type' });
    }
    json(res, 404, { error: 'not_found' });
  });
  issuer = `${listening.url}${prefix}`;
  return Object.assign(listening, { issuer, seen, tokens, clients });
}

function metadata(
  options: AuthServerOptions,
  issuer: string,
  prefix: string,
): Record<string, unknown> {
  const origin = new URL(issuer).origin;
  return {
    issuer: options.claimedIssuer ?? issuer,
    authorization_endpoint: `${origin}${prefix}/authorize`,
    token_endpoint: `${origin}${prefix}/token`,
    ...(options.registration === false
      ? {}
      : { registration_endpoint: `${origin}${prefix}/register` }),
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: options.authMethods ?? ['none'],
    ...(options.issSupported === false
      ? {}
      : { authorization_response_iss_parameter_supported: true }),
    ...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
    ...(options.cimd ? { client_id_metadata_document_supported: true } : {}),
  };
}

/** The client id the token request authenticated as, or undefined when its authentication fails. */
async function authenticate(
  req: IncomingMessage,
  params: Record<string, string>,
  clients: TestAuthServer['clients'],
  options: AuthServerOptions,
  issuer: string,
): Promise<string | undefined> {
  const header = req.headers.authorization;
  if (header?.startsWith('Basic ')) {
    const [id, secret] = Buffer.from(header.slice(6), 'base64')
      .toString()
      .split(':')
      .map(decodeURIComponent);
    return id && (clients.get(id)?.secret === secret || preRegistered(id, secret)) ? id : undefined;
  }
  if (params.client_assertion && options.verifyAssertion) {
    return options.verifyAssertion(params.client_assertion, issuer);
  }
  const id = params.client_id ?? '';
  if (params.client_secret !== undefined) {
    return clients.get(id)?.secret === params.client_secret ||
      preRegistered(id, params.client_secret)
      ? id
      : undefined;
  }
  return clients.get(id)?.method === 'none' || id.startsWith('https://') ? id : undefined;
}

/** The one pre-registered confidential client of the test server. */
export const PRE_REGISTERED = { clientId: 'pre-registered', clientSecret: 'pre-secret' };

function preRegistered(id: string, secret: string | undefined): boolean {
  return id === PRE_REGISTERED.clientId && secret === PRE_REGISTERED.clientSecret;
}
