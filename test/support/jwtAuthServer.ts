import type { ChildProcess } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { basicAuthorization, json, startAuthListener, type AuthRequest } from './authServerBase.js';

/** A running authorization server that issues JWT access tokens. */
export interface JwtAuthServer {
  readonly issuer: string;
  readonly jwksUrl: string;
  /** The `scope` of every authorization request, in order. */
  readonly authorizations: string[];
  /** The scopes of every access token issued, in order. */
  readonly issued: string[];
  /** Every token exchange (RFC 8693) granted, in order: whose token, for which resource. */
  readonly exchanges: { subject: string; resource: string }[];
  /** Subjects whose tokens the token exchange refuses (`invalid_grant`). */
  readonly refusedSubjects: Set<string>;
  /** An access token for `subject`, issued by this server for `audience` (a caller's token). */
  mintToken(subject: string, audience: string): Promise<string>;
  close(): Promise<void>;
}

interface Grant {
  challenge: string;
  scope: string;
  resource: string;
  clientId: string;
}

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

/** The confidential client every {@link startJwtAuthServer} knows, for the client credentials grant. */
export const MACHINE_CLIENT = { clientId: 'machine', clientSecret: 'machine-secret' } as const;

/**
 * A small but real OAuth 2.1 authorization server on 127.0.0.1 for tests: RFC 8414 metadata,
 * dynamic registration of public clients, an authorization endpoint that consents at once (the
 * user is `user-1`) and a token endpoint that checks PKCE S256 and issues RS256 JWTs for the
 * requested `resource` and scopes, verifiable with the JWKS it publishes. It also grants
 * `client_credentials` to {@link MACHINE_CLIENT} (`client_secret_basic`), the token's subject
 * being the client, and the token exchange (RFC 8693) to it: an access token this server issued
 * (`subject_token`) for one for the requested `resource`, with the same subject and the client as
 * its actor (`act`), unless the subject is one of `refusedSubjects`.
 */
export async function startJwtAuthServer(): Promise<JwtAuthServer> {
  const codes = new Map<string, Grant>();
  const clients = new Set<string>();
  const authorizations: string[] = [];
  const issued: string[] = [];
  const exchanges: { subject: string; resource: string }[] = [];
  const refusedSubjects = new Set<string>();
  const accessToken = async (
    grant: Omit<Grant, 'challenge'>,
    subject: string,
    claims: Record<string, unknown> = {},
  ) => ({
    access_token: await listener.sign(
      { scope: grant.scope, client_id: grant.clientId, ...claims },
      subject,
      grant.resource,
    ),
    token_type: 'Bearer',
    expires_in: 600,
    scope: grant.scope,
  });
  const serveRequest = async (
    { req, res, url, body, form }: AuthRequest,
    issuer: string,
  ): Promise<void> => {
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      return json(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        registration_endpoint: `${issuer}/register`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'client_credentials', TOKEN_EXCHANGE],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_basic'],
        authorization_response_iss_parameter_supported: true,
      });
    }
    if (url.pathname === '/register' && req.method === 'POST') {
      const clientId = `client-${randomUUID()}`;
      clients.add(clientId);
      return json(res, 201, {
        ...JSON.parse(body),
        client_id: clientId,
        token_endpoint_auth_method: 'none',
      });
    }
    if (url.pathname === '/authorize') {
      const params = Object.fromEntries(url.searchParams);
      const code = `code-${randomUUID()}`;
      const scope = params.scope ?? '';
      authorizations.push(scope);
      codes.set(code, {
        challenge: params.code_challenge ?? '',
        scope,
        resource: params.resource ?? '',
        clientId: params.client_id ?? '',
      });
      const back = new URL(params.redirect_uri ?? 'http://invalid');
      back.searchParams.set('code', code);
      if (params.state) back.searchParams.set('state', params.state);
      back.searchParams.set('iss', issuer);
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === '/token' && req.method === 'POST' && form.grant_type === TOKEN_EXCHANGE) {
      if (req.headers.authorization !== basicAuthorization(MACHINE_CLIENT)) {
        return json(res, 401, { error: 'invalid_client' });
      }
      const subject = await exchangedSubject(form);
      if (subject === undefined || refusedSubjects.has(subject)) {
        const problem = 'the subject token is not valid for this exchange';
        return json(res, 400, { error: 'invalid_grant', error_description: problem });
      }
      const grant = {
        scope: form.scope ?? '',
        resource: form.resource ?? '',
        clientId: MACHINE_CLIENT.clientId,
      };
      exchanges.push({ subject, resource: grant.resource });
      const token = await accessToken(grant, subject, { act: { sub: MACHINE_CLIENT.clientId } });
      return json(res, 200, { ...token, issued_token_type: ACCESS_TOKEN_TYPE });
    }
    if (
      url.pathname === '/token' &&
      req.method === 'POST' &&
      form.grant_type === 'client_credentials'
    ) {
      if (req.headers.authorization !== basicAuthorization(MACHINE_CLIENT)) {
        return json(res, 401, { error: 'invalid_client' });
      }
      const grant = {
        scope: form.scope ?? '',
        resource: form.resource ?? '',
        clientId: MACHINE_CLIENT.clientId,
      };
      issued.push(grant.scope);
      return json(res, 200, await accessToken(grant, MACHINE_CLIENT.clientId));
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const grant = codes.get(form.code ?? '');
      codes.delete(form.code ?? '');
      const verifier = createHash('sha256')
        .update(form.code_verifier ?? '')
        .digest('base64url');
      if (
        form.grant_type !== 'authorization_code' ||
        !grant ||
        verifier !== grant.challenge ||
        !clients.has(form.client_id ?? '') ||
        grant.clientId !== form.client_id ||
        grant.resource !== form.resource
      ) {
        return json(res, 400, { error: 'invalid_grant' });
      }
      issued.push(grant.scope);
      return json(res, 200, await accessToken(grant, 'user-1'));
    }
    json(res, 404, { error: 'not_found' });
  };
  /** The subject of an exchange's access token, when this server issued it and it is current. */
  const exchangedSubject = async (
    form: Readonly<Record<string, string | undefined>>,
  ): Promise<string | undefined> => {
    if (form.subject_token_type !== ACCESS_TOKEN_TYPE || !form.subject_token) return undefined;
    return (await listener.verify(form.subject_token))?.sub;
  };
  const listener = await startAuthListener(serveRequest);
  return {
    issuer: listener.issuer,
    jwksUrl: listener.jwksUrl,
    authorizations,
    issued,
    exchanges,
    refusedSubjects,
    mintToken: async (subject, audience) =>
      (await accessToken({ scope: '', resource: audience, clientId: 'caller-app' }, subject))
        .access_token,
    close: () => listener.close(),
  };
}

/** A headless redirect handler: asks the authorization URL and returns where it redirects. */
export async function followRedirect(authorizationUrl: URL): Promise<string> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (!location) throw new Error(`no redirect from ${authorizationUrl.origin}`);
  return location;
}

/** Resolves once a spawned server says on stderr that it is serving; rejects if it exits first. */
export function untilServing(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let output = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('serving')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}:\n${output}`)));
  });
}
