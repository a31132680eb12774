import type { JsonObject } from '@rondo/protocol';
import { bytesToBase64Url } from './base64.js';
import type { RouteReply, RouteRequest } from './contracts/routes.js';

/** A Host header that names a host (and port) and nothing else. */
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** How long caches may keep a discovery document (the discovery text's example). */
const MAX_AGE_SECONDS = 3600;

/**
 * The scheme and host a discovery request was addressed to (the Host header, the
 * `X-Forwarded-Proto` scheme or `http`), or undefined for a Host that is not one.
 */
export function originOf(request: RouteRequest): string | undefined {
  const host = first(request.headers.host);
  if (host === undefined || !HOST.test(host)) return undefined;
  const forwarded = first(request.headers['x-forwarded-proto'])?.toLowerCase();
  const scheme = forwarded === 'https' || forwarded === 'http' ? forwarded : 'http';
  return `${scheme}://${host}`;
}

/**
 * Answers a public discovery document (a Server Card, a catalog): GET and HEAD get it as
 * `mediaType` (or 304 for a matching `If-None-Match`), OPTIONS the CORS preflight, anything else
 * 405; no document (the server is not attached yet) is 404. CORS `*`, `Cache-Control` and a strong
 * `ETag` on every answer.
 */
export async function discoveryReply(
  request: RouteRequest,
  document: JsonObject | undefined,
  mediaType: string,
): Promise<RouteReply> {
  const cors = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'etag' };
  if (request.method === 'OPTIONS') {
    return {
      status: 204,
      headers: {
        ...cors,
        'access-control-allow-methods': 'GET, HEAD, OPTIONS',
        'access-control-allow-headers': 'content-type, if-none-match',
        'access-control-max-age': '600',
      },
    };
  }
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return { status: 405, headers: { ...cors, allow: 'GET, HEAD, OPTIONS' } };
  if (document === undefined) return { status: 404, headers: cors };
  const body = JSON.stringify(document);
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body));
  const etag = `"${bytesToBase64Url(new Uint8Array(digest))}"`;
  const headers = { ...cors, etag, 'cache-control': `public, max-age=${MAX_AGE_SECONDS}` };
  if (matches(first(request.headers['if-none-match']), etag)) return { status: 304, headers };
  const typed = { ...headers, 'content-type': mediaType };
  return request.method === 'HEAD'
    ? { status: 200, headers: typed }
    : { status: 200, headers: typed, body };
}

/** If-None-Match: `*`, or a list of tags compared weakly (RFC 9110, 13.1.2). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

function first(value: string | string[] | undefined): string | undefined {
  return (Array.isArray(value) ? value[0] : value)?.trim();
}
