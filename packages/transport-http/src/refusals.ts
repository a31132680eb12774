import { metadataUrlFor, type Disposition } from '@rondo/core';
import type { JsonRpcMessage } from '@rondo/protocol';
import type { OAuthResourceOptions } from './oauth.js';

/** The status and headers of a final answer, from what became of its request. */
export interface AnswerHead {
  status: number;
  headers: Record<string, string> | undefined;
}

/**
 * The HTTP head of a final answer. A call refused for missing scopes is 403 with the
 * `insufficient_scope` challenge naming the scopes it needs (the endpoint's own required scopes
 * too, as a client asks for exactly what the challenge names); a rate-limited one is 429 with
 * `Retry-After`. The JSON-RPC error stays the body, for clients that read it.
 */
export function answerHead(
  disposition: Disposition | undefined,
  message: JsonRpcMessage,
  auth: OAuthResourceOptions | undefined,
  headers: Record<string, string> | undefined,
): AnswerHead {
  switch (disposition) {
    case 'refused':
      return { status: 400, headers };
    case 'unknown':
      return { status: 404, headers };
    case 'forbidden':
      return { status: 403, headers: { ...headers, ...scopeChallenge(message, auth) } };
    case 'throttled':
      return { status: 429, headers: { ...headers, 'retry-after': retryAfter(message) } };
    case 'handled':
    case 'unclaimed':
    case undefined:
      return { status: 200, headers };
  }
}

function errorData(message: JsonRpcMessage): Record<string, unknown> {
  const error = 'error' in message ? message.error : undefined;
  const data = error?.data;
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
}

function scopeChallenge(
  message: JsonRpcMessage,
  auth: OAuthResourceOptions | undefined,
): Record<string, string> {
  const needed = errorData(message).requiredScopes;
  const scopes = new Set(auth?.requiredScopes ?? []);
  if (Array.isArray(needed))
    for (const scope of needed) if (typeof scope === 'string') scopes.add(scope);
  // Scope tokens never hold a quote or a backslash (RFC 6749 3.3); anything else is dropped.
  const scope = [...scopes].filter((entry) => /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(entry));
  const metadata = auth ? `, resource_metadata="${metadataUrlFor(auth.resource)}"` : '';
  return {
    'www-authenticate': `Bearer error="insufficient_scope", scope="${scope.join(' ')}"${metadata}`,
  };
}

/** `Retry-After` in whole seconds, at least 1. */
function retryAfter(message: JsonRpcMessage): string {
  const ms = errorData(message).retryAfterMs;
  const seconds = typeof ms === 'number' && Number.isFinite(ms) ? Math.ceil(ms / 1000) : 1;
  return String(Math.max(1, seconds));
}
