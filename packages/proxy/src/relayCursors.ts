import type { Principal, RequestStateOptions } from '@rondo/core';
import { RequestStateSealer } from '@rondo/core/internal';
import { eventsErrors } from '@rondo/events';
import { oversizedUpstreamCursor } from './eventsRelayErrors.js';

/** How long a gateway's event cursor opens unless `cursors.ttlMs` says otherwise: 7 days, as the extension's own. */
export const DEFAULT_RELAYED_CURSOR_TTL_MS = 7 * 24 * 60 * 60_000;

/** The longest upstream event cursor the gateway wraps: a longer one fails the request. */
export const MAX_UPSTREAM_CURSOR_LENGTH = 4096;

/** Whose subscription a wrapped cursor belongs to. */
export interface RelayedBinding {
  /** The gateway entry (the proxy's name) whose upstream issued the cursor inside. */
  readonly upstream: string;
  /** The event type's name as the caller sees it (namespaced). */
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  readonly principal: Principal | undefined;
}

/** The method name wrapped cursors are sealed under (poll and push share them, as upstream). */
const RELAYED_CURSOR_METHOD = 'events/relayed-cursor';

/**
 * An upstream's event cursors as a gateway hands them on: each sealed (HMAC, core's
 * `RequestStateSealer`, the gateway's key ring) together with the entry it came from, the event
 * type, a digest of the arguments and the caller's principal. An upstream binds its cursors to the
 * gateway's identity, which every caller shares: the seal is what keeps one caller's cursor from
 * another caller, and one upstream's from another upstream.
 */
export class RelayCursors {
  private readonly sealer: RequestStateSealer;

  constructor(options: RequestStateOptions = {}) {
    this.sealer = new RequestStateSealer({ ttlMs: DEFAULT_RELAYED_CURSOR_TTL_MS, ...options });
  }

  /** The caller's cursor for the upstream's `cursor`; an oversized one fails as the upstream's fault. */
  wrap(cursor: string, binding: RelayedBinding): Promise<string> {
    if (cursor.length > MAX_UPSTREAM_CURSOR_LENGTH)
      return Promise.reject(oversizedUpstreamCursor(binding.upstream, MAX_UPSTREAM_CURSOR_LENGTH));
    return this.sealer.seal(sealed(binding), { state: cursor, carry: null });
  }

  /** The upstream's cursor inside a caller's, or the spec's invalid-cursor error. */
  async unwrap(cursor: string, binding: RelayedBinding): Promise<string> {
    let state: unknown;
    try {
      state = (await this.sealer.open(cursor, sealed(binding))).state;
    } catch {
      throw eventsErrors.invalidCursor(binding.name);
    }
    if (typeof state !== 'string') throw eventsErrors.invalidCursor(binding.name);
    return state;
  }
}

function sealed(binding: RelayedBinding) {
  return {
    method: RELAYED_CURSOR_METHOD,
    identity: {
      upstream: binding.upstream,
      name: binding.name,
      arguments: binding.arguments,
    },
    principal: binding.principal?.id,
  };
}
