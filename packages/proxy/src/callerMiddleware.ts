import type { Middleware, Provider } from '@rondo/core';
import { ProxyProvider } from './proxyProvider.js';

/**
 * The middleware of a server whose proxies act for each caller (`RemoteUpstream.callerAuthorizer`):
 * before each request it tells each proxy who is asking, so the first caller's request (its tool
 * list, usually) opens the catalog connection with that caller's authorizer. A server with
 * middleware passes no call through (see `withPassThrough`): add it only where such a proxy is.
 */
export function seeCallers(providers: () => Iterable<Provider>): Middleware {
  return async (call, next) => {
    for (const provider of providers()) {
      if (provider instanceof ProxyProvider) provider.connections.see(call);
    }
    return next();
  };
}
