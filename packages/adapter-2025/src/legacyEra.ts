import type { EraAdapter } from '@rondo/core';
import { resolveOptions, type LegacyEraOptions } from './options.js';
import { LegacySession } from './session.js';

/**
 * The legacy era (2025-11-25 and 2025-06-18) as an adapter for `createEndpoint`: the handshake,
 * every legacy method, server-to-client requests (`ctx.elicit`, `ctx.sample`, `ctx.listRoots`) and
 * the legacy shim that runs round hooks for clients that cannot receive `input_required`.
 *
 * ```ts
 * const endpoint = createEndpoint(server, { legacy: legacyEra() });
 * ```
 */
export function legacyEra(options?: LegacyEraOptions): EraAdapter {
  const resolved = resolveOptions(options);
  return {
    era: 'legacy',
    open: (server, peer) => new LegacySession(server, peer, resolved),
  };
}
