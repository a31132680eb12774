import type { HttpRequest, HttpResponse } from './edge.js';
import { TokenRejectedError, type Principal, type VerifiedToken } from '@rondo/core';
import { headerValue, reject } from './reply.js';

export type { VerifiedToken } from '@rondo/core';

/** OAuth 2.1 resource-server settings (the MCP authorization spec; RFC 9728 metadata). */
export interface OAuthResourceOptions {
  /** This resource's identifier: the MCP endpoint's canonical URL, e.g. `https://mcp.example.com/mcp`. */
  resource: string;
  /** Issuer URLs of the authorization servers that mint tokens for this resource. */
  authorizationServers: readonly string[];
  /**
   * Checks a bearer token (signature, issuer, revocation); undefined or a throw means invalid. A
   * thrown `TokenRejectedError` puts its description into the 401's `error_description`; its
   * reason `verifier_unavailable` answers 503 instead (the token was not judged). The verifiers of
   * `@rondo/auth` are ready ones.
   */
  verifyToken(token: string): VerifiedToken | undefined | Promise<VerifiedToken | undefined>;
  /** Scopes every MCP request needs (403 `insufficient_scope` without them). */
  requiredScopes?: readonly string[];
  /** Scopes advertised in the metadata. Default: the required scopes. */
  scopesSupported?: readonly string[];
  /** A human-readable name for the metadata document. */
  resourceName?: string;
}

const METADATA_PREFIX = '/.well-known/oauth-protected-resource';

/** The `Retry-After` of the 503 answered while a verifier cannot judge tokens. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** The outcome of authenticating one request: its principal, or the refusal already sent. */
export type AuthOutcome = { ok: true; principal: Principal | undefined } | { ok: false };

/**
 * Authenticates an MCP request with its bearer token. A missing or invalid token gets 401 pointing
 * at the metadata, a token lacking required scopes 403 `insufficient_scope` naming them.
 */
export async function authenticate(
  req: HttpRequest,
  res: HttpResponse,
  auth: OAuthResourceOptions,
): Promise<AuthOutcome> {
  const metadataUrl = metadataUrlFor(auth.resource);
  const required = auth.requiredScopes ?? [];
  const challenge = (extra: string): Record<string, string> => ({
    'www-authenticate': `Bearer ${extra}resource_metadata="${metadataUrl}"`,
  });
  const scopeHint = required.length > 0 ? `scope="${required.join(' ')}", ` : '';
  const match = /^Bearer[ ]+(\S+)$/i.exec(headerValue(req.headers, 'authorization') ?? '');
  if (!match?.[1]) {
    reject(res, 401, 'Unauthorized: a bearer token is required', challenge(scopeHint));
    return { ok: false };
  }
  const verdict = await verifySafely(auth, match[1]);
  if (verdict instanceof TokenRejectedError && verdict.reason === 'verifier_unavailable') {
    // The token was not judged: a 401 would send the client to re-authorize, which cannot help.
    reject(res, 503, `Service Unavailable: ${verdict.description}`, {
      'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
    });
    return { ok: false };
  }
  const token = verdict instanceof TokenRejectedError ? undefined : verdict;
  const problem =
    verdict instanceof TokenRejectedError ? verdict.description : problemOf(token, auth.resource);
  if (!token || problem !== undefined) {
    const header = challenge(`error="invalid_token", error_description="${problem ?? ''}", `);
    reject(res, 401, `Unauthorized: ${problem ?? 'invalid token'}`, header);
    return { ok: false };
  }
  const missing = required.filter((scope) => !token.scopes.includes(scope));
  if (missing.length > 0) {
    const header = challenge(`error="insufficient_scope", scope="${required.join(' ')}", `);
    reject(res, 403, `Forbidden: insufficient scope, needs ${required.join(' ')}`, header, {
      requiredScopes: required,
    });
    return { ok: false };
  }
  const principal: Principal = { id: token.subject, scopes: [...token.scopes] };
  if (token.clientId !== undefined) principal.clientId = token.clientId;
  if (token.claims) principal.claims = token.claims;
  return { ok: true, principal };
}

/** Why a verified token still does not admit the request, if it does not. */
function problemOf(token: VerifiedToken | undefined, resource: string): string | undefined {
  if (!token) return 'the token is invalid';
  if (!audienceIncludes(token.audience, resource))
    return 'the token was not issued for this resource';
  if (token.expiresAt !== undefined && token.expiresAt * 1000 <= Date.now())
    return 'the token has expired';
  return undefined;
}

async function verifySafely(
  auth: OAuthResourceOptions,
  token: string,
): Promise<VerifiedToken | TokenRejectedError | undefined> {
  try {
    return await auth.verifyToken(token);
  } catch (error) {
    // Any other throw may carry the token or a stack in its message: it stays generic.
    return error instanceof TokenRejectedError ? error : undefined;
  }
}

function audienceIncludes(audience: string | readonly string[], resource: string): boolean {
  const wanted = canonical(resource);
  const list = typeof audience === 'string' ? [audience] : audience;
  return list.some((entry) => canonical(entry) === wanted);
}

/** Canonical resource URI for comparison (RFC 8707): lower-case scheme and host, no trailing slash. */
function canonical(uri: string): string {
  try {
    const url = new URL(uri);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}${url.search}`;
  } catch {
    return uri;
  }
}

/** The metadata URL of a resource: the well-known prefix inserted before the resource's path. */
export function metadataUrlFor(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/+$/, '');
  return `${url.origin}${METADATA_PREFIX}${path}`;
}

/** True when `pathname` is a Protected Resource Metadata path this resource answers. */
export function isMetadataPath(
  pathname: string,
  auth: OAuthResourceOptions,
  mcpPath: string,
): boolean {
  if (!pathname.startsWith(METADATA_PREFIX)) return false;
  const rest = pathname.slice(METADATA_PREFIX.length);
  return (
    rest === '' || rest === '/' || rest === mcpPath || rest === new URL(auth.resource).pathname
  );
}

/** Serves the Protected Resource Metadata document (RFC 9728). */
export function serveMetadata(res: HttpResponse, auth: OAuthResourceOptions): void {
  const body = JSON.stringify({
    resource: auth.resource,
    authorization_servers: auth.authorizationServers,
    scopes_supported: auth.scopesSupported ?? auth.requiredScopes ?? [],
    bearer_methods_supported: ['header'],
    ...(auth.resourceName ? { resource_name: auth.resourceName } : {}),
  });
  res.writeHead(200, {
    'content-type': 'application/json',
    'cache-control': 'public, max-age=3600',
    'access-control-allow-origin': '*',
  });
  res.end(body);
}
