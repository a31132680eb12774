import { oauth, type OAuthOptions } from '@rondo/client';
import {
  startAuthServer,
  type AuthServerOptions,
  type TestAuthServer,
} from './authorizationServer.js';
import {
  startResourceServer,
  type ResourceServerOptions,
  type TestResourceServer,
} from './resourceServer.js';

/** The redirect URI the tests register; nothing listens there, the handler reads `Location`. */
export const REDIRECT_URI = 'http://127.0.0.1:1/callback';

/** A headless redirect handler: asks the authorization URL and returns where it redirects. */
export async function followRedirect(authorizationUrl: URL): Promise<string> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (!location) throw new Error(`no redirect from ${authorizationUrl.origin}`);
  return location;
}

/** An authorization server and a resource server it protects, disposed together. */
export interface Pair {
  as: TestAuthServer;
  rs: TestResourceServer;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Starts an authorization server and a resource server naming it. */
export async function startPair(
  asOptions: AuthServerOptions = {},
  rsOptions: Partial<ResourceServerOptions> = {},
): Promise<Pair> {
  const as = await startAuthServer(asOptions);
  const rs = await startResourceServer({
    authorizationServers: () => [as.issuer],
    verify: (token) => as.tokens.get(token),
    ...rsOptions,
  });
  return {
    as,
    rs,
    async [Symbol.asyncDispose]() {
      await rs[Symbol.asyncDispose]();
      await as[Symbol.asyncDispose]();
    },
  };
}

/** `oauth()` with the test redirect handler and URI. */
export function testOAuth(options: Partial<OAuthOptions> = {}): ReturnType<typeof oauth> {
  return oauth({ onRedirect: followRedirect, redirectUri: REDIRECT_URI, ...options });
}

/** The requests an authorization server saw at a path. */
export function seenAt(as: TestAuthServer, path: string): TestAuthServer['seen'] {
  return as.seen.filter((entry) => entry.path === path);
}
