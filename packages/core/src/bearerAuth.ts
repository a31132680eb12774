/**
 * OAuth 2.1 bearer tokens on a request, for every transport that carries HTTP headers (a Streamable
 * HTTP request, a WebSocket upgrade): the token is read and checked here, once, and each transport
 * writes the verdict in its own way. Nothing here touches a socket, so it runs on any runtime.
 */
import type { Principal } from './definitions.js';
import { TokenRejectedError } from './errors.js';
import type { VerifiedToken } from './tokens.js';

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

/**
 * What a request's bearer token is worth: the principal it acts for, or the HTTP refusal (401 for
 * a missing or invalid token, 403 for missing scopes, 503 while the verifier cannot judge tokens)
 * with its `WWW-Authenticate` challenge or `Retry-After`.
 */
export type BearerVerdict =
  | { ok: true; principal: Principal; expiresAt: number | undefined }
  | {
      ok: false;
      status: 401 | 403 | 503;
      reason: string;
      headers: Record<string, string>;
      /** Details for a JSON-RPC error body (`requiredScopes` of a 403). */
      data?: { requiredScopes: readonly string[] };
    };

const METADATA_PREFIX = '/.well-known/oauth-protected-resource';

/** The `Retry-After` of the 503 answered while a verifier cannot judge tokens. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * Checks the `Authorization` header of a request against `auth`: a bearer token the verifier
 * accepts, issued for this resource, not expired, with every required scope.
 */
export async function verifyBearer(
  authorization: string | undefined,
  auth: OAuthResourceOptions,
): Promise<BearerVerdict> {
  const metadataUrl = metadataUrlFor(auth.resource);
  const required = auth.requiredScopes ?? [];
  const challenge = (extra: string): Record<string, string> => ({
    'www-authenticate': `Bearer ${extra}resource_metadata="${metadataUrl}"`,
  });
  const match = /^Bearer[ ]+(\S+)$/i.exec(authorization?.trim() ?? '');
  if (!match?.[1]) {
    const scopeHint = required.length > 0 ? `scope="${required.join(' ')}", ` : '';
    const reason = 'Unauthorized: a bearer token is required';
    return { ok: false, status: 401, reason, headers: challenge(scopeHint) };
  }
  const verdict = await verifySafely(auth, match[1]);
  if (verdict instanceof TokenRejectedError && verdict.reason === 'verifier_unavailable') {
    // The token was not judged: a 401 would send the client to re-authorize, which cannot help.
    const headers = { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) };
    return {
      ok: false,
      status: 503,
      reason: `Service Unavailable: ${verdict.description}`,
      headers,
    };
  }
  const token = verdict instanceof TokenRejectedError ? undefined : verdict;
  const problem =
    verdict instanceof TokenRejectedError
      ? verdict.description
      : tokenProblem(token, auth.resource);
  if (!token || problem !== undefined) {
    const extra = `error="invalid_token", error_description="${problem ?? ''}", `;
    const reason = `Unauthorized: ${problem ?? 'invalid token'}`;
    return { ok: false, status: 401, reason, headers: challenge(extra) };
  }
  if (required.some((scope) => !token.scopes.includes(scope))) {
    const extra = `error="insufficient_scope", scope="${required.join(' ')}", `;
    const reason = `Forbidden: insufficient scope, needs ${required.join(' ')}`;
    const data = { requiredScopes: required };
    return { ok: false, status: 403, reason, headers: challenge(extra), data };
  }
  const principal: Principal = { id: token.subject, scopes: [...token.scopes] };
  if (token.clientId !== undefined) principal.clientId = token.clientId;
  if (token.claims) principal.claims = token.claims;
  return { ok: true, principal, expiresAt: token.expiresAt };
}

function tokenProblem(token: VerifiedToken | undefined, resource: string): string | undefined {
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

/** True when `pathname` is a Protected Resource Metadata path of this resource served at `path`. */
export function isMetadataPath(
  pathname: string,
  auth: OAuthResourceOptions,
  path: string,
): boolean {
  if (!pathname.startsWith(METADATA_PREFIX)) return false;
  const rest = pathname.slice(METADATA_PREFIX.length);
  return rest === '' || rest === '/' || rest === path || rest === new URL(auth.resource).pathname;
}

/** The Protected Resource Metadata document (RFC 9728) of a resource, as JSON text. */
export function metadataDocument(auth: OAuthResourceOptions): string {
  return JSON.stringify({
    resource: auth.resource,
    authorization_servers: auth.authorizationServers,
    scopes_supported: auth.scopesSupported ?? auth.requiredScopes ?? [],
    bearer_methods_supported: ['header'],
    ...(auth.resourceName ? { resource_name: auth.resourceName } : {}),
  });
}
