import { discoverAuthorizationServer } from './authorizationServer.js';
import type { OAuthHttp } from './http.js';
import type { AuthContext } from './authContext.js';
import { discoverAtIssuer } from './pinnedIssuer.js';
import { canonicalResource, discoverProtectedResource } from './protectedResource.js';

export type { AuthContext } from './authContext.js';

/**
 * Discovers the authorization context of `serverUrl`: its protected-resource metadata (from the
 * challenge's `resource_metadata`, else the well-known URLs) and the first authorization server it
 * names. A server without metadata is one of the 2025-03-26 era: its origin is the issuer, with that
 * revision's metadata and default-endpoint fallbacks. With `issuer` (a client bound to one
 * authorization server) only that server is ever asked; see `discoverAtIssuer`.
 */
export async function discover(
  http: OAuthHttp,
  serverUrl: URL,
  resourceMetadataUrl?: string,
  issuer?: string,
): Promise<AuthContext> {
  if (issuer !== undefined) return discoverAtIssuer(http, serverUrl, resourceMetadataUrl, issuer);
  const metadata = await discoverProtectedResource(http, serverUrl, resourceMetadataUrl);
  if (!metadata) {
    const server = await discoverAuthorizationServer(http, serverUrl.origin, true);
    return { resource: canonicalResource(serverUrl), server };
  }
  const named = metadata.authorizationServers[0] ?? '';
  const server = await discoverAuthorizationServer(http, named);
  const context: AuthContext = { resource: metadata.resource, server };
  if (metadata.scopesSupported) context.resourceScopes = metadata.scopesSupported;
  return context;
}
