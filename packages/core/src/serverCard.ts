import type { JsonObject } from '@rondo/protocol';
import { discoveryReply, originOf } from './discoveryReply.js';
import type { Extension, ExtensionHost } from './contracts/extension.js';
import type { ServerInfo } from './contracts/server.js';
import type { RouteRequest } from './contracts/routes.js';
import { catalogOf, type CatalogEntry } from './serverCatalog.js';

/**
 * Where the Server Card is served, relative to the MCP endpoint (SEP-2127 and the discovery text
 * of the Server Card extension reserve `<streamable-http-url>/server-card`).
 */
export const SERVER_CARD_SUFFIX = '/server-card';

/**
 * The card's former place, still served as an alias with a `Deprecation` header and a `Link` to
 * the current one: the drafts no longer recommend `.well-known` for a single server's card.
 * @deprecated Read the card at `<endpoint>/server-card` ({@link SERVER_CARD_SUFFIX}).
 */
export const SERVER_CARD_PATH = '/.well-known/mcp/server-card.json';

/** The Server Card's media type. */
export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';

/** Where a host publishes its MCP Catalog, and the cross-protocol AI Catalog beside it. */
export const MCP_CATALOG_PATHS = ['/.well-known/mcp/catalog.json', '/.well-known/ai-catalog.json'];

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
  /**
   * The MCP Catalog's entries. Default: one for this server's card at the address the catalog was
   * asked at. A gateway or a host serving several endpoints lists each.
   */
  readonly catalog?: readonly CatalogEntry[];
}

/**
 * The Server Card (SEP-2127) as an extension: a public JSON document
 * ({@link SERVER_CARD_MEDIA_TYPE}) at `<endpoint>/server-card` describing the server before a
 * client connects: name, version, title, description, icons, website and remotes; and the host's
 * MCP Catalog (at `/.well-known/mcp/catalog.json` and `/.well-known/ai-catalog.json`) listing the
 * card. Any origin may read them (CORS `*`), caches may keep them an hour, each carries a strong
 * `ETag` (a matching `If-None-Match` is answered 304), and like the MCP endpoint they answer only
 * the Host names its guard accepts. The former `.well-known` card path is an alias marked
 * deprecated. It announces no capability.
 */
export function serverCard(options: ServerCardOptions = {}): Extension {
  let host: ExtensionHost | undefined;
  const card = (request: RouteRequest): JsonObject | undefined =>
    host && cardOf(host.info, options, request);
  return {
    id: 'io.modelcontextprotocol/server-card',
    settings: () => undefined,
    attach: (_server, attachedTo) => {
      host = attachedTo;
    },
    routes: [
      {
        path: `.${SERVER_CARD_SUFFIX}`,
        serve: (request) => discoveryReply(request, card(request), SERVER_CARD_MEDIA_TYPE),
      },
      {
        path: SERVER_CARD_PATH,
        serve: async (request) => {
          const reply = await discoveryReply(request, card(request), SERVER_CARD_MEDIA_TYPE);
          const current = `${request.mcpPath}${SERVER_CARD_SUFFIX}`;
          const deprecation = {
            deprecation: 'true',
            link: `<${current}>; rel="successor-version"`,
          };
          return { ...reply, headers: { ...reply.headers, ...deprecation } };
        },
      },
      ...MCP_CATALOG_PATHS.map((path) => ({
        path,
        serve: (request: RouteRequest) => {
          const document = host && catalogOf(host.info, request, options);
          return discoveryReply(request, document, 'application/json');
        },
      })),
    ],
  };
}

/** The card's members from the server's identity and the remotes. */
function cardOf(info: ServerInfo, options: ServerCardOptions, request: RouteRequest): JsonObject {
  const { name, version, title, description, icons, websiteUrl } = info;
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
  const origin = originOf(request);
  return origin ? [{ type: 'streamable-http', url: `${origin}${request.mcpPath}` }] : [];
}
