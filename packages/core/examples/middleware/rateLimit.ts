import { McpError } from '@rondo/protocol';
import type { Middleware } from '@rondo/core';

/** A JSON-RPC code of the implementation-defined server range, for "slow down". */
export const RATE_LIMITED = -32000;

/** How many calls one principal may make per window. */
export interface RateLimitOptions {
  limit: number;
  windowMs: number;
  /** The clock, for tests (default `Date.now`). */
  now?: () => number;
}

/**
 * A fixed-window rate limit per principal (anonymous callers share one window). A call over the
 * limit is refused with {@link RATE_LIMITED} (-32000) and the milliseconds to wait in `data.retryAfterMs`. Windows of
 * principals that went quiet are dropped, so the table stays as small as the active callers.
 */
export function rateLimit({ limit, windowMs, now = Date.now }: RateLimitOptions): Middleware {
  const windows = new Map<string, { start: number; count: number }>();
  return async (call, next) => {
    const at = now();
    const key = call.principal?.id ?? '(anonymous)';
    let window = windows.get(key);
    if (window === undefined || at - window.start >= windowMs) {
      for (const [other, open] of windows) if (at - open.start >= windowMs) windows.delete(other);
      window = { start: at, count: 0 };
      windows.set(key, window);
    }
    window.count += 1;
    if (window.count > limit) {
      throw new McpError(RATE_LIMITED, `Rate limit exceeded: ${limit} calls per ${windowMs} ms`, {
        retryAfterMs: window.start + windowMs - at,
      });
    }
    return next();
  };
}
