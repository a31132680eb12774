import { describe, expect, it } from 'vitest';
import { scaled, TIME_FACTOR, timeFactorOf } from '@rondo/test-support/timeFactor';

describe("the tests' time factor", () => {
  it('is RONDO_TIME_FACTOR when set to a positive number', () => {
    expect(timeFactorOf({ RONDO_TIME_FACTOR: '3' }, 0, 2)).toBe(3);
    expect(timeFactorOf({ RONDO_TIME_FACTOR: '0.5' }, 40, 2)).toBe(0.5);
  });

  it('is measured from the load per core otherwise, between 1 and 10', () => {
    expect(timeFactorOf({}, 0.3, 2)).toBe(1);
    expect(timeFactorOf({}, 12, 2)).toBe(6);
    expect(timeFactorOf({}, 80, 2)).toBe(10);
    expect(timeFactorOf({ RONDO_TIME_FACTOR: 'fast' }, 12, 2)).toBe(6);
  });

  it('is the one factor of the run, handed to the workers by vitest.config.ts', () => {
    expect(process.env.RONDO_TIME_FACTOR).toBeDefined();
    expect(TIME_FACTOR).toBe(Number(process.env.RONDO_TIME_FACTOR));
    expect(scaled(1000)).toBe(Math.ceil(1000 * TIME_FACTOR));
  });
});
