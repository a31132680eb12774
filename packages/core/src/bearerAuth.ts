/**
 * OAuth 2.1 access tokens on a request (bearer, or DPoP-bound with a proof), for every transport
 * that carries HTTP headers (a Streamable HTTP request, a WebSocket upgrade): the token is read and
 * checked here, once, and each transport writes the verdict in its own way. Nothing here touches a
 * socket, so it runs on any runtime.
 */
import type { Principal } from './contracts/definitions.js';
import { TokenRejectedError } from './errors.js';
import { rememberPresentedToken } from './presentedTokens.js';
import {
  bindingProblem,
  challengeHeader,
  checkProof,
  tokenOfAuthorization,
  PROOF_KEY_MISMATCH,
  type Scheme,
} from './dpopAuth.js';
import type { VerifiedToken } from './tokens.js';
import type { OAuthResourceOptions, RequestProofContext } from './resourceAuthOptions.js';

export type {
  DpopResourceOptions,
  OAuthResourceOptions,
  RequestProofContext,
} from './resourceAuthOptions.js';

/**
 * What a request's token is worth: the principal it acts for, or the HTTP refusal (401 for a
 * missing or invalid token or proof, 403 for missing scopes, 503 while the verifier cannot judge
 * tokens) with its `WWW-Authenticate` challenge or `Retry-After`.
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
 * Checks the `Authorization` header of a request against `auth`: a token the verifier accepts,
 * issued for this resource, not expired, with every required scope; presented as `Bearer` when
 * it is not bound to a key, and with DPoP enabled as `DPoP` with a valid proof (`request`) when
 * it is. A bound token is never accepted as `Bearer`.
 */
export async function verifyBearer(
  authorization: string | undefined,
  auth: OAuthResourceOptions,
  request?: RequestProofContext,
): Promise<BearerVerdict> {
  const required = auth.requiredScopes ?? [];
  const metadataUrl = metadataUrlFor(auth.resource);
  const challenge = (scheme: Scheme | undefined, params: string) =>
    challengeHeader(auth, metadataUrl, scheme, params);
  const refuse = (scheme: Scheme, error: string, problem: string): BearerVerdict => ({
    ok: false,
    status: 401,
    reason: `Unauthorized: ${problem}`,
    headers: challenge(scheme, `error="${error}", error_description="${problem}", `),
  });
  const presented = tokenOfAuthorization(authorization, auth);
  if (!presented) {
    const scopeHint = required.length > 0 ? `scope="${required.join(' ')}", ` : '';
    const kind = auth.dpop?.mode === 'required' ? 'a DPoP-bound' : 'a bearer';
    const reason = `Unauthorized: ${kind} token is required`;
    return { ok: false, status: 401, reason, headers: challenge(undefined, scopeHint) };
  }
  const { scheme, token: accessToken } = presented;
  if (scheme === 'Bearer' && auth.dpop?.mode === 'required') {
    return refuse('DPoP', 'invalid_token', 'this resource requires a DPoP-bound token');
  }
  const proven = scheme === 'DPoP' ? await checkProof(auth, accessToken, request) : undefined;
  if (proven instanceof TokenRejectedError) {
    return refuse('DPoP', 'invalid_dpop_proof', proven.description);
  }
  const verdict = await verifySafely(auth, accessToken);
  if (verdict instanceof TokenRejectedError && verdict.reason === 'verifier_unavailable') {
    // The token was not judged: a 401 would send the client to re-authorize, which cannot help.
    const retryAfter = verdict.retryAfterSeconds ?? UNAVAILABLE_RETRY_AFTER_SECONDS;
    const headers = { 'retry-after': String(retryAfter) };
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
      : (tokenProblem(token, auth.resource) ?? bindingProblem(token, scheme, proven));
  if (!token || problem !== undefined) {
    const error = problem === PROOF_KEY_MISMATCH ? 'invalid_dpop_proof' : 'invalid_token';
    return refuse(scheme, error, problem ?? 'invalid token');
  }
  if (required.some((scope) => !token.scopes.includes(scope))) {
    const extra = `error="insufficient_scope", scope="${required.join(' ')}", `;
    const reason = `Forbidden: insufficient scope, needs ${required.join(' ')}`;
    const data = { requiredScopes: required };
    return { ok: false, status: 403, reason, headers: challenge(scheme, extra), data };
  }
  const principal: Principal = { id: token.subject, scopes: [...token.scopes] };
  if (token.clientId !== undefined) principal.clientId = token.clientId;
  if (token.claims) principal.claims = token.claims;
  rememberPresentedToken(principal, accessToken);
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
    ...(auth.dpop
      ? {
          dpop_signing_alg_values_supported: auth.dpop.proofs.algorithms,
          dpop_bound_access_tokens_required: auth.dpop.mode === 'required',
        }
      : {}),
    ...(auth.resourceName ? { resource_name: auth.resourceName } : {}),
  });
}
