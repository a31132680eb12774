import type { Endpoint } from '@rondo/core';
import { composeEndpoint } from '@rondo/server/endpoint';
import { createEverythingServer, type EverythingServerOptions } from './server.js';

/**
 * The everything server composed with both eras: a modern (2026-07-28) client and a legacy
 * (2025-11-25, 2025-06-18) client are served by the same endpoint, on any transport.
 */
export function createFixtureEndpoint(options: EverythingServerOptions = {}): Endpoint {
  const server = createEverythingServer(options);
  return composeEndpoint(server, { modern: { alsoSupported: ['2025-11-25', '2025-06-18'] } });
}
