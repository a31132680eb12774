import type { McpCall } from '@rondo/core';

/**
 * Who a call is counted against: `principal` (the token's subject; callers without one are
 * counted by their client key), `client` (the OAuth client id; without one, as `principal`),
 * `ip` (the peer's address), or a function of the call.
 */
export type CallerKeying = 'principal' | 'client' | 'ip' | ((call: McpCall) => string | undefined);

/**
 * How to read a client's address behind reverse proxies. Without it `ip` is the socket's peer,
 * which behind a proxy is the proxy: every client would share one counter.
 */
export interface ProxyTrust {
  /** The header the proxies append the address they saw to (default `x-forwarded-for`). */
  header?: string;
  /**
   * How many proxies of yours stand in front (default 1): the address is the entry that many from
   * the right, the one your outermost proxy saw. Entries further left are the client's to write
   * and are never trusted.
   */
  hops?: number;
}

/** The key of the caller of `call` under `by`; `undefined` when the transport tells nothing. */
export function callerKey(
  call: McpCall,
  by: CallerKeying,
  proxy: ProxyTrust | undefined,
): string | undefined {
  if (typeof by === 'function') {
    const key = by(call);
    return key === undefined ? undefined : `k:${key}`;
  }
  if (by === 'ip') {
    const address = addressOf(call, proxy);
    return address === undefined ? undefined : `ip:${address}`;
  }
  if (by === 'client' && call.principal?.clientId !== undefined)
    return `client:${call.principal.clientId}`;
  if (call.principal !== undefined) return `principal:${call.principal.id}`;
  // Anonymous: the transport's own key for the client (an address over HTTP), else one for all.
  return call.client !== undefined ? `anon:${call.client}` : 'anon';
}

/** The client's address: the trusted proxy header entry, else the socket's peer. */
export function addressOf(call: McpCall, proxy: ProxyTrust | undefined): string | undefined {
  if (proxy === undefined) return call.address;
  const raw = call.headers?.[(proxy.header ?? 'x-forwarded-for').toLowerCase()];
  const joined = Array.isArray(raw) ? raw.join(',') : raw;
  const entries = (joined ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const hops = Math.max(1, proxy.hops ?? 1);
  // Fewer entries than proxies: the request did not come through all of them; use the peer.
  return entries.at(-hops) ?? call.address;
}
