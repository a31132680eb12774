import { discoverAuthorizationServer } from './authorizationServer.js';
import type { AuthContext } from './authContext.js';
import { OAuthDiscoveryError, OAuthIssuerMismatchError } from './errors.js';
import type { OAuthHttp } from './http.js';
import { canonicalResource, discoverProtectedResource } from './protectedResource.js';

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);

/**
 * True for a URL credentials may be sent to: `https:`, or `http:` on a loopback host (127.x.x.x,
 * `[::1]`, `localhost`), where nothing crosses a network (tests, a local authorization server).
 */
export function isSecureAuthorizationUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol, hostname } = new URL(url);
  if (protocol === 'https:') return true;
  return (
    protocol === 'http:' && (LOOPBACK_HOSTS.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname))
  );
}

/**
 * Discovery for a client bound to one authorization server: the resource's metadata is read at the
 * resource's own origin (a `resource_metadata` elsewhere is not followed), and unless it names
 * `issuer` the flow stops before anything is sent to any authorization server. A resource without
 * metadata gets its tokens from `issuer` too (the 2025-03-26 default endpoints only when `issuer` is
 * the resource's own origin). A token endpoint that is not https (loopback aside) is refused.
 */
export async function discoverAtIssuer(
  http: OAuthHttp,
  serverUrl: URL,
  resourceMetadataUrl: string | undefined,
  issuer: string,
): Promise<AuthContext> {
  const sameOrigin =
    resourceMetadataUrl !== undefined &&
    URL.canParse(resourceMetadataUrl, serverUrl.href) &&
    new URL(resourceMetadataUrl, serverUrl).origin === serverUrl.origin;
  const metadata = await discoverProtectedResource(
    http,
    serverUrl,
    sameOrigin ? resourceMetadataUrl : undefined,
  );
  if (metadata && !metadata.authorizationServers.includes(issuer)) {
    throw new OAuthIssuerMismatchError(
      `the resource names the authorization server ${metadata.authorizationServers.join(', ')}, not the configured issuer ${issuer}`,
      issuer,
      metadata.authorizationServers[0],
    );
  }
  const server = await discoverAuthorizationServer(
    http,
    issuer,
    !metadata && new URL(issuer).origin === serverUrl.origin,
  );
  if (!isSecureAuthorizationUrl(server.tokenEndpoint)) {
    throw new OAuthDiscoveryError(
      `the token endpoint of ${issuer} is not https (${new URL(server.tokenEndpoint).origin})`,
    );
  }
  const resource = metadata?.resource ?? canonicalResource(serverUrl);
  return {
    resource,
    server,
    ...(metadata?.scopesSupported ? { resourceScopes: metadata.scopesSupported } : {}),
  };
}
