import type { JsonObject } from '@rondo/protocol';
import { originOf } from './discoveryReply.js';
import type { RouteRequest } from './contracts/routes.js';
import type { ServerInfo } from './contracts/server.js';

/** One entry of an MCP Catalog: a server and where its card is. */
export interface CatalogEntry {
  /** The discovery URN, `urn:air:<publisher domain>:<name>`. */
  readonly identifier: string;
  readonly displayName: string;
  /** The card's URL. */
  readonly url: string;
}

/**
 * The MCP Catalog (the Server Card extension's discovery text, a subset of the AI Catalog): the
 * given entries, or one for this server's card at the address asked; every entry typed as a
 * Server Card. Undefined (404) when the request names no usable host and no entries are given.
 */
export function catalogOf(
  info: Pick<ServerInfo, 'name' | 'title'>,
  request: RouteRequest,
  options: { readonly catalog?: readonly CatalogEntry[] },
): JsonObject | undefined {
  const entries = options.catalog ?? ownEntry(info, request);
  if (entries === undefined) return undefined;
  return {
    specVersion: 'draft',
    entries: entries.map((entry) => ({
      identifier: entry.identifier,
      displayName: entry.displayName,
      type: 'application/mcp-server-card+json',
      url: entry.url,
    })),
  };
}

function ownEntry(
  info: Pick<ServerInfo, 'name' | 'title'>,
  request: RouteRequest,
): CatalogEntry[] | undefined {
  const origin = originOf(request);
  if (origin === undefined) return undefined;
  return [
    {
      identifier: catalogIdentifier(new URL(origin).hostname, info.name),
      displayName: info.title ?? info.name,
      url: `${origin}${request.mcpPath}/server-card`,
    },
  ];
}

/**
 * A catalog identifier (`urn:air:{publisher}:{name}`): the publisher's domain, and the server
 * name's part after its last `/` (a reverse-DNS `com.example/weather` gives `weather`), each
 * reduced to the characters a URN segment may hold.
 */
export function catalogIdentifier(publisher: string, serverName: string): string {
  const segment = (text: string) => text.replace(/[^A-Za-z0-9._~-]/g, '-') || 'server';
  return `urn:air:${segment(publisher)}:${segment(serverName.split('/').at(-1) ?? serverName)}`;
}
