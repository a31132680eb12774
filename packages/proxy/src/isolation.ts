import type { HandlerContext, McpCall } from '@rondo/core';

/**
 * Whose upstream session a call runs in: `shared`, one session (one process on stdio) for every
 * caller; `principal`, one per principal (an anonymous caller's is its address, as the core tells
 * clients apart for their task shares); `session`, one per caller's session (a legacy caller's
 * HTTP session; a caller without one falls back to its principal's).
 */
export type Isolation = 'shared' | 'principal' | 'session';

/** The per-caller upstream sessions an isolating proxy keeps. */
export interface IsolationLimits {
  /**
   * Whose upstream session a call runs in. Default: `principal` for an upstream connected in the
   * legacy era (a session holds state of its client: roots, log level, subscriptions), `shared`
   * for a modern one (it keeps no state between requests).
   */
  readonly isolation?: Isolation;
  /** Per-caller upstream sessions open at once (each a process for a stdio upstream). Default 32. */
  readonly maxIsolatedSessions?: number;
  /** How long a per-caller session with no call open is kept before it is closed (ms). Default 300,000. */
  readonly isolatedIdleMs?: number;
}

/** The key anonymous callers share when the transport cannot tell them apart (stdio). */
export const ANONYMOUS_CALLER = 'anonymous';

/**
 * Who a request counts as for the shares and caps of a proxy: its principal, else the client key
 * the transport gives (an anonymous caller's address), else one anonymous caller. Read off the
 * call the pipeline hands providers (a `RequestCall`, which is also the middleware's `McpCall`).
 */
export function callerKey(ctx: Pick<HandlerContext, 'principal'>): string {
  if (ctx.principal) return `principal:${ctx.principal.id}`;
  const client = (ctx as Partial<McpCall>).client;
  return client === undefined ? ANONYMOUS_CALLER : `client:${client}`;
}

/** The upstream session `ctx` runs in under `mode`: `undefined` for the shared one. */
export function isolationKey(mode: Isolation, ctx: HandlerContext): string | undefined {
  if (mode === 'shared') return undefined;
  const caller = callerKey(ctx);
  if (mode === 'principal') return caller;
  const session = (ctx as Partial<McpCall>).sessionId;
  return session === undefined ? caller : `${caller} session:${session}`;
}
