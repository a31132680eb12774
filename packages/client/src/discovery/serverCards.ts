import { ProtocolViolationError, TransportError } from '../errors.js';
import { send } from '../oauth/http.js';

/** The Server Card's media type. */
const CARD_MEDIA_TYPE = 'application/mcp-server-card+json';
/** Largest card or catalog read. */
const MAX_DOCUMENT_BYTES = 256 * 1024;
/** Most catalog entries kept. */
const MAX_ENTRIES = 1000;

/** What a Server Card says of a server before connecting: advisory, to be checked once connected. */
export interface ServerCard {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
  readonly description?: string;
  readonly websiteUrl?: string;
  /** The endpoints listed (`streamable-http`, `websocket`...), with absolute URLs. */
  readonly remotes: readonly { readonly type: string; readonly url: string }[];
}

/** One Server Card a host's catalog lists. */
export interface CatalogEntry {
  readonly identifier: string;
  readonly displayName: string;
  readonly url: string;
}

/** How a card or a catalog is fetched. */
export interface DiscoveryOptions {
  /** Default: the global fetch. */
  fetch?: typeof fetch;
  /** Deadline in ms. Default 10,000. */
  timeoutMs?: number;
}

/**
 * Reads the Server Card at `url` (a catalog entry's `url`, or `<endpoint>/server-card`), asking
 * for its media type. A card without a name, a version or with a remote that is not an absolute
 * http(s) or ws(s) URL is refused with `ProtocolViolationError`; an answer that is not 200, over
 * 256 KiB (not read past it) or later than the deadline is a `TransportError`. Redirects are not
 * followed.
 */
export async function readServerCard(
  url: string | URL,
  options: DiscoveryOptions = {},
): Promise<ServerCard> {
  const document = await readDocument(url, CARD_MEDIA_TYPE, options);
  const { name, version } = document;
  if (typeof name !== 'string' || typeof version !== 'string')
    throw new ProtocolViolationError(`the Server Card at ${String(url)} has no name or version`);
  const remotes = Array.isArray(document.remotes) ? document.remotes : [];
  const text = (key: string) => (typeof document[key] === 'string' ? { [key]: document[key] } : {});
  return {
    name,
    version,
    ...text('title'),
    ...text('description'),
    ...text('websiteUrl'),
    remotes: remotes.map((remote: unknown) => remoteOf(remote, url)),
  };
}

/**
 * Reads the MCP Catalog of a host (`/.well-known/mcp/catalog.json` at `origin`): the entries
 * typed as Server Cards, others left out as the discovery text says. At most 1,000 entries.
 */
export async function readCatalog(
  origin: string | URL,
  options: DiscoveryOptions = {},
): Promise<CatalogEntry[]> {
  const url = new URL('/.well-known/mcp/catalog.json', origin);
  const document = await readDocument(url, 'application/json', options);
  if (!Array.isArray(document.entries))
    throw new ProtocolViolationError(`the catalog at ${url.href} has no entries array`);
  const entries: CatalogEntry[] = [];
  for (const entry of document.entries.slice(0, MAX_ENTRIES) as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { identifier, displayName, type, url: cardUrl } = entry as Record<string, unknown>;
    if (type !== CARD_MEDIA_TYPE || typeof cardUrl !== 'string' || !URL.canParse(cardUrl, url.href))
      continue;
    entries.push({
      identifier: typeof identifier === 'string' ? identifier : '',
      displayName: typeof displayName === 'string' ? displayName : '',
      url: new URL(cardUrl, url).href,
    });
  }
  return entries;
}

async function readDocument(
  url: string | URL,
  accept: string,
  options: DiscoveryOptions,
): Promise<Record<string, unknown>> {
  const target = String(url);
  const http = {
    fetch:
      options.fetch ?? ((input: string | URL | Request, init?: RequestInit) => fetch(input, init)),
    timeoutMs: options.timeoutMs ?? 10_000,
    maxBodyBytes: MAX_DOCUMENT_BYTES,
  };
  let answer: Awaited<ReturnType<typeof send>>;
  try {
    answer = await send(http, target, { headers: { accept } });
  } catch (error) {
    throw new TransportError((error as Error).message, undefined, { cause: error });
  }
  if (answer.status !== 200) throw new TransportError(`GET ${target} answered ${answer.status}`);
  let value: unknown;
  try {
    value = JSON.parse(answer.text);
  } catch {
    throw new ProtocolViolationError(`${target} answered something that is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ProtocolViolationError(`${target} answered JSON that is not an object`);
  return value as Record<string, unknown>;
}

function remoteOf(remote: unknown, url: string | URL): { type: string; url: string } {
  const { type, url: where } = (remote ?? {}) as Record<string, unknown>;
  const valid =
    typeof type === 'string' &&
    typeof where === 'string' &&
    URL.canParse(where) &&
    ['http:', 'https:', 'ws:', 'wss:'].includes(new URL(where).protocol);
  if (!valid)
    throw new ProtocolViolationError(
      `the Server Card at ${String(url)} lists a remote without a URL`,
    );
  return { type: type, url: where };
}
