import type { JsonObject } from '@rondo/protocol';
import { bytesToBase64Url } from './base64.js';
import type { Extension, RouteReply, RouteRequest } from './extension.js';
import { runtimeOf, type ServerRuntime } from './runtime.js';

/**
 * Where the Server Card is served. SEP-2127 is still a draft, and drafts have moved this path
 * (`/.well-known/mcp/server-card.json` is the one its current text and most servers use): it is
 * this one constant, so following the draft is a one-line change.
 */
export const SERVER_CARD_PATH = '/.well-known/mcp/server-card.json';

/** The JSON schema the draft card names in `$schema`. */
export const SERVER_CARD_SCHEMA =
  'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

/** One way to reach the server, as the card lists it. */
export interface ServerCardRemote {
  /** The transport: `streamable-http` (or `websocket` for a WebSocket endpoint). */
  readonly type: string;
  readonly url: string;
}

/** How the card is made (`serverCard: { ... }` in the server options). */
export interface ServerCardOptions {
  /**
   * The endpoints the card lists. Default: the Streamable HTTP endpoint at the address the card
   * was asked at (the request's Host, the `X-Forwarded-Proto` scheme or `http`, the MCP path).
   */
  readonly remotes?: readonly ServerCardRemote[];
}

/** A Host header that names a host (and port) and nothing else. */
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The Server Card (SEP-2127, draft) as an extension: a public JSON document at
 * {@link SERVER_CARD_PATH} describing the server before a client connects: name, version, title,
 * description, icons, website and remotes. Any origin may read it (CORS `*`); it carries a strong
 * `ETag` and a matching `If-None-Match` is answered 304. It announces no capability.
 */
export function serverCard(options: ServerCardOptions = {}): Extension {
  let runtime: ServerRuntime | undefined;
  return {
    id: 'io.modelcontextprotocol/server-card',
    settings: () => undefined,
    attach: (attached) => {
      runtime = runtimeOf(attached);
    },
    routes: [
      {
        path: SERVER_CARD_PATH,
        serve: async (request) => {
          if (runtime === undefined) return { status: 404 };
          return answer(request, cardOf(runtime, options, request));
        },
      },
    ],
  };
}

/** The card's members from the server's identity and the remotes. */
function cardOf(
  runtime: ServerRuntime,
  options: ServerCardOptions,
  request: RouteRequest,
): JsonObject {
  const { name, version, title, description, icons, websiteUrl } = runtime.info;
  const card: JsonObject = { $schema: SERVER_CARD_SCHEMA, name, version };
  if (title !== undefined) card.title = title;
  if (description !== undefined) card.description = description;
  if (icons !== undefined) card.icons = icons as unknown as JsonObject[];
  if (websiteUrl !== undefined) card.websiteUrl = websiteUrl;
  const remotes = options.remotes ?? remotesAt(request);
  if (remotes.length > 0) card.remotes = remotes.map((remote) => ({ ...remote }));
  return card;
}

function remotesAt(request: RouteRequest): ServerCardRemote[] {
  const host = first(request.headers.host);
  if (host === undefined || !HOST.test(host)) return [];
  const forwarded = first(request.headers['x-forwarded-proto'])?.toLowerCase();
  const scheme = forwarded === 'https' || forwarded === 'http' ? forwarded : 'http';
  return [{ type: 'streamable-http', url: `${scheme}://${host}${request.mcpPath}` }];
}

/** GET and HEAD get the card (or 304), OPTIONS the CORS preflight, anything else 405. */
async function answer(request: RouteRequest, card: JsonObject): Promise<RouteReply> {
  const cors = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'etag' };
  if (request.method === 'OPTIONS') {
    return {
      status: 204,
      headers: {
        ...cors,
        'access-control-allow-methods': 'GET, HEAD, OPTIONS',
        'access-control-allow-headers': 'if-none-match',
        'access-control-max-age': '600',
      },
    };
  }
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return { status: 405, headers: { ...cors, allow: 'GET, HEAD, OPTIONS' } };
  const body = JSON.stringify(card);
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body));
  const etag = `"${bytesToBase64Url(new Uint8Array(digest))}"`;
  // Revalidated on every use: the ETag makes that a 304 while the card is unchanged.
  const headers = { ...cors, etag, 'cache-control': 'public, no-cache' };
  if (matches(first(request.headers['if-none-match']), etag)) return { status: 304, headers };
  const json = { ...headers, 'content-type': 'application/json' };
  return request.method === 'HEAD'
    ? { status: 200, headers: json }
    : { status: 200, headers: json, body };
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
