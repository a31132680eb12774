import type { EraAdapter, RondoServer } from '@rondo/core';
import { CatalogMemo, type WireResult } from '@rondo/core/internal';
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
  // List pages are kept per server, not per session: every session of a server shares them.
  const lists = new WeakMap<RondoServer, CatalogMemo<WireResult>>();
  return {
    era: 'legacy',
    revisions: resolved.revisions,
    open(server, peer) {
      let memo = lists.get(server);
      if (memo === undefined) {
        memo = new CatalogMemo();
        lists.set(server, memo);
      }
      return new LegacySession(server, peer, resolved, memo);
    },
  };
}
