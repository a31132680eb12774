import { describe, expect, it } from 'vitest';
import { MemoryRateLimitStore, slideWindow, takeToken, type RateState } from '../src/index.js';

const bucket = { algorithm: 'token-bucket', limit: 3, windowMs: 3000 } as const;
const window = { algorithm: 'sliding-window', limit: 3, windowMs: 1000 } as const;

describe('token bucket', () => {
  it('admits a burst of limit, then one per refill interval, saying how long to wait', () => {
    let state: RateState | undefined;
    const verdicts = [0, 1, 2, 3].map(() => {
      const step = takeToken(state, bucket, 10_000);
      state = step.state;
      return step.verdict;
    });
    expect(verdicts.map((v) => v.allowed)).toEqual([true, true, true, false]);
    expect(verdicts[3]!.retryAfterMs).toBe(1000);
    expect(takeToken(state, bucket, 10_500).verdict).toEqual({ allowed: false, retryAfterMs: 500 });
    const refilled = takeToken(state, bucket, 11_000);
    expect(refilled.verdict.allowed).toBe(true);
    expect(takeToken(refilled.state, bucket, 11_000).verdict.allowed).toBe(false);
  });
});

describe('sliding window', () => {
  it('admits exactly limit in a first window and weighs the previous one after', () => {
    let state: RateState | undefined;
    const at = (now: number) => {
      const step = slideWindow(state, window, now);
      state = step.state;
      return step.verdict;
    };
    expect([at(5000), at(5100), at(5200), at(5300)].map((v) => v.allowed)).toEqual([
      true,
      true,
      true,
      false,
    ]);
    // Full window, nothing before it: the next window's first moments still count it in full.
    expect(at(5300).retryAfterMs).toBe(1034);
    // At 6500, half of the previous window (3 calls) still counts: 1.5 + 0 + 1 <= 3.
    expect(at(6500).allowed).toBe(true);
    expect(at(6500).allowed).toBe(false);
    // A window later than the next forgets everything.
    expect(at(9000).allowed).toBe(true);
  });
});

describe('MemoryRateLimitStore', () => {
  it('keeps at most maxKeys counters, the least recently used dropped first', () => {
    let now = 0;
    const store = new MemoryRateLimitStore({ maxKeys: 2, now: () => now });
    const rule = { algorithm: 'token-bucket', limit: 1, windowMs: 60_000 } as const;
    expect(store.hit('a', rule).allowed).toBe(true);
    expect(store.hit('b', rule).allowed).toBe(true);
    expect(store.hit('a', rule).allowed).toBe(false);
    now = 1;
    expect(store.hit('c', rule).allowed).toBe(true);
    expect(store.size).toBe(2);
    // b was the least recently used: forgotten, it starts full again; a is still counted.
    expect(store.hit('b', rule).allowed).toBe(true);
    expect(store.hit('c', rule).allowed).toBe(false);
  });
});
