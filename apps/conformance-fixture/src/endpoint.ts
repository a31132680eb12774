import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import { createEndpoint, type Endpoint } from '@rondo/core';
import { createEverythingServer, type EverythingServerOptions } from './server.js';

/**
 * The everything server composed with both eras: a modern (2026-07-28) client and a legacy
 * (2025-11-25, 2025-06-18) client are served by the same endpoint, on any transport.
 */
export function createFixtureEndpoint(options: EverythingServerOptions = {}): Endpoint {
  const server = createEverythingServer(options);
  return createEndpoint(server, {
    modern: modernEra({ alsoSupported: ['2025-11-25', '2025-06-18'] }),
    legacy: legacyEra(),
  });
}
