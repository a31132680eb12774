import type { IncomingMessage } from 'node:http';
import { normaliseOrigin } from '@rondo/core/internal';
import type { ResolvedHttpOptions } from './options.js';
import { headerValue } from './reply.js';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * DNS rebinding protection: the Host header must name this server, and a browser's Origin must be
 * the server's own or one the caller allowed. Returns why the request is refused, or undefined.
 */
export function refuseForeignHost(
  req: IncomingMessage,
  options: ResolvedHttpOptions,
): string | undefined {
  const host = headerValue(req.headers, 'host');
  const hostAllowed = host !== undefined && isAllowedHost(host, req, options.allowedHosts);
  if (!hostAllowed) return `Forbidden: Host "${host ?? ''}" is not allowed`;
  const origin = headerValue(req.headers, 'origin');
  if (origin === undefined || options.allowedOrigins === 'any') return undefined;
  const originHost = hostOfOrigin(origin);
  if (originHost !== undefined && originHost === host.toLowerCase()) return undefined;
  const normalised = normaliseOrigin(origin);
  if (
    normalised &&
    options.allowedOrigins.some((allowed) => normaliseOrigin(allowed) === normalised)
  ) {
    return undefined;
  }
  return `Forbidden: Origin "${origin}" is not allowed`;
}

function isAllowedHost(
  host: string,
  req: IncomingMessage,
  allowed: readonly string[] | 'any' | undefined,
): boolean {
  if (allowed === 'any') return true;
  const parsed = parseHost(host);
  if (!parsed) return false;
  if (allowed === undefined) {
    return LOOPBACK_NAMES.has(parsed.name) && parsed.port === (req.socket.localPort ?? -1);
  }
  return allowed.some((entry) => {
    const rule = parseHost(entry);
    if (!rule || rule.name !== parsed.name) return false;
    return !entry.includes(':', entry.lastIndexOf(']') + 1) || rule.port === parsed.port;
  });
}

/** Hosts already parsed: clients repeat the same few Host values, and a URL parse is not cheap. */
const parsedHosts = new Map<string, { name: string; port: number } | undefined>();
const PARSED_HOSTS_KEPT = 256;

/** Splits `name[:port]` (IPv6 in brackets); the port defaults to 80. */
function parseHost(host: string): { name: string; port: number } | undefined {
  if (parsedHosts.has(host)) return parsedHosts.get(host);
  const parsed = parseHostOnce(host);
  if (parsedHosts.size >= PARSED_HOSTS_KEPT) parsedHosts.clear();
  parsedHosts.set(host, parsed);
  return parsed;
}

function parseHostOnce(host: string): { name: string; port: number } | undefined {
  try {
    const url = new URL(`http://${host}`);
    if (url.username || url.password || url.pathname !== '/' || url.search) return undefined;
    return { name: url.hostname.toLowerCase(), port: url.port === '' ? 80 : Number(url.port) };
  } catch {
    return undefined;
  }
}

function hostOfOrigin(origin: string): string | undefined {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return undefined;
  }
}

/** True when the Content-Type names JSON (`application/json`, parameters such as charset allowed). */
export function isJsonContentType(value: string | undefined): boolean {
  // Clients send the same Content-Type on every request: the last answer is kept.
  if (value === lastContentType.value) return lastContentType.json;
  const json = mediaType(value ?? '') === 'application/json';
  lastContentType = { value, json };
  return json;
}

let lastContentType: { value: string | undefined; json: boolean } = {
  value: undefined,
  json: false,
};

/**
 * True when an Accept header allows every one of `types` (wildcards and `q=0` honoured). A missing
 * Accept allows nothing: the transport spec requires clients to list what they take.
 */
export function acceptsAll(accept: string | undefined, types: readonly string[]): boolean {
  if (!accept) return false;
  // Clients send the same Accept on every request: the last answer per list of types is kept.
  const memo = acceptMemos.get(types);
  if (memo?.accept === accept) return memo.accepted;
  const accepted = matchesAll(accept, types);
  acceptMemos.set(types, { accept, accepted });
  return accepted;
}

const acceptMemos = new WeakMap<readonly string[], { accept: string; accepted: boolean }>();

function matchesAll(accept: string, types: readonly string[]): boolean {
  const ranges = accept.split(',').map(parseRange);
  return types.every((type) => {
    const [major] = type.split('/');
    return ranges.some(
      (range) =>
        range.q > 0 && (range.type === type || range.type === `${major}/*` || range.type === '*/*'),
    );
  });
}

function parseRange(range: string): { type: string; q: number } {
  const [type = '', ...params] = range.split(';');
  const q = params
    .map((param) => param.trim())
    .find((param) => param.toLowerCase().startsWith('q='));
  return { type: type.trim().toLowerCase(), q: q === undefined ? 1 : Number(q.slice(2)) || 0 };
}

function mediaType(value: string): string {
  return (value.split(';')[0] ?? '').trim().toLowerCase();
}
