import { OAuthDiscoveryError, OAuthResourceMismatchError } from './errors.js';
import { jsonObject, send, type OAuthHttp } from './http.js';

/** What the client uses from a protected resource's metadata (RFC 9728 §2). */
export interface ProtectedResource {
  /** The resource identifier exactly as published: the `resource` parameter sends it back as is. */
  resource: string;
  /** Issuer URLs of the authorization servers; the first is used. */
  authorizationServers: string[];
  /** The scopes the resource advertises, when it does. */
  scopesSupported?: string[];
}

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/**
 * The metadata URLs to try for `serverUrl`, in order: the one a challenge named, then the
 * path-aware well-known URL, then the root one (RFC 9728 §3.1; MCP authorization, discovery).
 */
export function protectedResourceUrls(serverUrl: URL, fromChallenge?: string): string[] {
  const urls: string[] = [];
  if (fromChallenge) urls.push(new URL(fromChallenge, serverUrl).href);
  const path = serverUrl.pathname.replace(/\/+$/, '');
  if (path) urls.push(`${serverUrl.origin}${WELL_KNOWN}${path}`);
  urls.push(`${serverUrl.origin}${WELL_KNOWN}`);
  return [...new Set(urls)];
}

/**
 * Fetches the protected-resource metadata of `serverUrl`. Undefined when no candidate URL has any
 * (a server of the 2025-03-26 era, whose origin is its own authorization server); a document that
 * names another resource is refused before anything is sent to its authorization server.
 */
export async function discoverProtectedResource(
  http: OAuthHttp,
  serverUrl: URL,
  fromChallenge?: string,
): Promise<ProtectedResource | undefined> {
  for (const url of protectedResourceUrls(serverUrl, fromChallenge)) {
    const answer = await send(http, url, { headers: { accept: 'application/json' } });
    if (answer.status !== 200) continue;
    const metadata = readProtectedResource(jsonObject(answer, url), url);
    if (!resourceCovers(metadata.resource, serverUrl)) {
      throw new OAuthResourceMismatchError(serverUrl.href, metadata.resource);
    }
    return metadata;
  }
  return undefined;
}

function readProtectedResource(document: Record<string, unknown>, url: string): ProtectedResource {
  const { resource, authorization_servers: servers, scopes_supported: scopes } = document;
  if (typeof resource !== 'string' || !URL.canParse(resource)) {
    throw new OAuthDiscoveryError(`protected resource metadata at ${url} has no valid resource`);
  }
  const authorizationServers = Array.isArray(servers)
    ? servers.filter((entry): entry is string => typeof entry === 'string' && URL.canParse(entry))
    : [];
  if (authorizationServers.length === 0) {
    throw new OAuthDiscoveryError(
      `protected resource metadata at ${url} names no authorization server`,
    );
  }
  const metadata: ProtectedResource = { resource, authorizationServers };
  if (Array.isArray(scopes)) {
    metadata.scopesSupported = scopes.filter((entry): entry is string => typeof entry === 'string');
  }
  return metadata;
}

/**
 * True when a token for `resource` may be used at `serverUrl`: the same origin, and the server's
 * path at or below the resource's path (a resource may cover several endpoints under it).
 */
export function resourceCovers(resource: string, serverUrl: URL): boolean {
  const published = new URL(resource);
  if (published.origin !== serverUrl.origin || published.hash) return false;
  const base = published.pathname.replace(/\/+$/, '');
  const path = serverUrl.pathname.replace(/\/+$/, '');
  return path === base || path.startsWith(`${base}/`);
}

/** The canonical URI of a server without metadata (RFC 8707; MCP canonical server URI). */
export function canonicalResource(serverUrl: URL): string {
  const path = serverUrl.pathname === '/' ? '' : serverUrl.pathname.replace(/\/+$/, '');
  return `${serverUrl.origin}${path}`;
}
