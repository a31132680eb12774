import type { EraAdapter } from '@rondo/core';
import { CatalogMemo, runtimeOfHost, type ServerRuntime } from '@rondo/core/internal';
import { SessionChanges } from './changeNotifications.js';
import { resolveOptions, type LegacyEraOptions } from './options.js';
import { LegacySession, type ServerShared } from './session.js';

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
  // List pages and the change listener are kept per server, not per session: every session of a
  // server shares them.
  const shared = new WeakMap<ServerRuntime, ServerShared>();
  const sharedOf = (runtime: ServerRuntime): ServerShared => {
    let ofServer = shared.get(runtime);
    if (ofServer === undefined) {
      ofServer = { lists: new CatalogMemo(), changes: new SessionChanges(runtime) };
      shared.set(runtime, ofServer);
    }
    return ofServer;
  };
  return {
    era: 'legacy',
    revisions: resolved.revisions,
    open(host, peer) {
      const runtime = runtimeOfHost(host);
      return new LegacySession(runtime, peer, resolved, sharedOf(runtime));
    },
    restore(host, peer, _endpoint, snapshot) {
      const runtime = runtimeOfHost(host);
      const session = new LegacySession(runtime, peer, resolved, sharedOf(runtime));
      session.refresh(snapshot);
      return session;
    },
  };
}
