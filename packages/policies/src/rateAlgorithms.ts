import type { RateRule, RateVerdict } from '@rondo/core';

/** A counter's state, as the memory store keeps it (the Redis store keeps the same in a hash). */
export interface RateState {
  /** Token bucket: tokens left; sliding window: calls in the current window. */
  a: number;
  /** Token bucket: when `a` was computed; sliding window: the current window's index. */
  b: number;
  /** Sliding window: calls in the window before. */
  c: number;
}

const ALLOWED: RateVerdict = Object.freeze({ allowed: true, retryAfterMs: 0 });

/**
 * One call against a token bucket of `limit` tokens refilled evenly over `windowMs`: the state
 * after it and the verdict. `state` undefined is a full bucket.
 */
export function takeToken(
  state: RateState | undefined,
  rule: RateRule,
  now: number,
): { state: RateState; verdict: RateVerdict } {
  const rate = rule.limit / rule.windowMs;
  const tokens =
    state === undefined ? rule.limit : Math.min(rule.limit, state.a + (now - state.b) * rate);
  if (tokens >= 1) return { state: { a: tokens - 1, b: now, c: 0 }, verdict: ALLOWED };
  const retryAfterMs = Math.max(1, Math.ceil((1 - tokens) / rate));
  return { state: { a: tokens, b: now, c: 0 }, verdict: { allowed: false, retryAfterMs } };
}

/**
 * One call against a sliding window (the two-window counter: the previous window's count weighted
 * by how much of it the sliding window still covers, plus the current one's), admitting at most
 * `limit` calls in any `windowMs` as estimated so; exact within a first window.
 */
export function slideWindow(
  state: RateState | undefined,
  rule: RateRule,
  now: number,
): { state: RateState; verdict: RateVerdict } {
  const { limit, windowMs } = rule;
  const window = Math.floor(now / windowMs);
  let current = 0;
  let previous = 0;
  if (state !== undefined && state.b === window) {
    current = state.a;
    previous = state.c;
  } else if (state !== undefined && state.b === window - 1) {
    previous = state.a;
  }
  const elapsed = now - window * windowMs;
  const estimate = (previous * (windowMs - elapsed)) / windowMs + current;
  if (estimate + 1 <= limit) {
    return { state: { a: current + 1, b: window, c: previous }, verdict: ALLOWED };
  }
  return {
    state: { a: current, b: window, c: previous },
    verdict: {
      allowed: false,
      retryAfterMs: windowWait(limit, windowMs, current, previous, elapsed),
    },
  };
}

/** Milliseconds until the sliding window's estimate leaves room for one more call. */
function windowWait(
  limit: number,
  windowMs: number,
  current: number,
  previous: number,
  elapsed: number,
): number {
  let wait: number;
  if (current + 1 > limit) {
    // Not before the next window, whose previous window is this full one.
    const into = windowMs * (1 - (limit - 1) / current);
    wait = windowMs - elapsed + into;
  } else {
    wait = windowMs - ((limit - current - 1) * windowMs) / previous - elapsed;
  }
  return Math.max(1, Math.ceil(wait));
}
