import type { HttpRequest, HttpResponse } from './edge.js';
import {
  isMetadataPath,
  metadataDocument,
  metadataUrlFor,
  verifyBearer,
  type OAuthResourceOptions,
  type Principal,
  type VerifiedToken,
} from '@rondo/core';
import { headerValue, reject } from './reply.js';

// The rules live in the core, shared with the WebSocket transport's upgrade check.
export { isMetadataPath, metadataUrlFor, type OAuthResourceOptions, type VerifiedToken };

/** The outcome of authenticating one request: its principal, or the refusal already sent. */
export type AuthOutcome = { ok: true; principal: Principal | undefined } | { ok: false };

/**
 * Authenticates an MCP request with its access token (bearer, or DPoP-bound with its proof for
 * the endpoint at `path`). A missing or invalid token or proof gets 401 pointing at the metadata,
 * a token lacking required scopes 403 `insufficient_scope` naming them, and a verifier that cannot
 * judge tokens 503 with `Retry-After`.
 */
export async function authenticate(
  req: HttpRequest,
  res: HttpResponse,
  auth: OAuthResourceOptions,
  path: string,
): Promise<AuthOutcome> {
  const host = headerValue(req.headers, 'host');
  // Behind a proxy the scheme is unknown here; the resource URL is the one clients are told.
  const urls = host ? [`http://${host}${path}`, `https://${host}${path}`] : [];
  const proof = { method: req.method ?? '', urls, dpop: req.headers.dpop };
  const verdict = await verifyBearer(headerValue(req.headers, 'authorization'), auth, proof);
  if (verdict.ok) return { ok: true, principal: verdict.principal };
  reject(res, verdict.status, verdict.reason, verdict.headers, verdict.data);
  return { ok: false };
}

/** Serves the Protected Resource Metadata document (RFC 9728). */
export function serveMetadata(res: HttpResponse, auth: OAuthResourceOptions): void {
  res.writeHead(200, {
    'content-type': 'application/json',
    'cache-control': 'public, max-age=3600',
    'access-control-allow-origin': '*',
  });
  res.end(metadataDocument(auth));
}
