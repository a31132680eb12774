import { describe, expect, it, vi } from 'vitest';
import type { Json, JsonObject } from '@rondo/protocol';
import { CallTable, type CallTableHost } from '../src/callTable.js';
import { PrologCallError, PrologCancelledError, PrologTimeoutError } from '../src/errors.js';
import type { InFlight } from '../src/workerCall.js';

// The table of calls on its own, with a host that records what the worker would do.
function table(overrides: Partial<CallTableHost> = {}) {
  const written: JsonObject[] = [];
  const interrupted: number[][] = [];
  const timedOut: Error[] = [];
  let freed = 0;
  const host: CallTableHost = {
    id: 7,
    cancelGraceMs: 50,
    maxInFlight: 3,
    alive: () => true,
    write: (message) => written.push(message),
    interrupt: (ids) => interrupted.push(ids),
    timedOut: (error) => timedOut.push(error),
    overstayed: () => undefined,
    warn: () => undefined,
    free: () => freed++,
    ...overrides,
  };
  return { calls: new CallTable(host), written, interrupted, timedOut, freed: () => freed };
}

function inFlight(id: number, timeoutMs = 1000) {
  const outcome: { value?: Json; error?: Error } = {};
  const call: InFlight = {
    id,
    resolve: (value) => (outcome.value = value),
    reject: (error) => (outcome.error = error),
    handlers: {},
    timeoutMs,
    abandoned: false,
    detach: () => undefined,
  };
  return { call, outcome };
}

describe('CallTable', () => {
  it('settles calls in order: only the first may speak, and each answer frees the worker', () => {
    const { calls, freed } = table();
    const first = inFlight(1);
    const second = inFlight(2);
    calls.add(first.call);
    calls.add(second.call);
    expect(calls.size).toBe(2);
    expect(calls.deliver({ type: 'result', id: 2, value: 'early' })).toBe(false);
    expect(calls.deliver({ type: 'result', id: 1, value: 'one' })).toBe(true);
    expect(calls.deliver({ type: 'failure', id: 2, kind: 'unknown_method', message: 'no' })).toBe(
      true,
    );
    expect(first.outcome.value).toBe('one');
    expect(second.outcome.error).toBeInstanceOf(PrologCallError);
    expect(calls.size).toBe(0);
    expect(freed()).toBe(2);
  });

  it('has room behind its calls up to maxInFlight, and none behind a call given up', () => {
    const { calls, interrupted } = table();
    expect(calls.roomBehind).toBe(true);
    const calls3 = [inFlight(1), inFlight(2), inFlight(3)];
    calls.add(calls3[0]!.call);
    calls.add(calls3[1]!.call);
    expect(calls.roomBehind).toBe(true);
    calls.abandon(calls3[1]!.call);
    expect(calls3[1]!.outcome.error).toBeInstanceOf(PrologCancelledError);
    expect(interrupted).toEqual([[2]]);
    expect(calls.roomBehind).toBe(false);
    calls.failRunning(new Error('gone'));
    calls.endAll(() => new Error('lost'));
    calls.add(calls3[2]!.call);
    expect(calls.roomBehind).toBe(true);
  });

  it('runs the deadline of the first call only, and reports it to the host', () => {
    vi.useFakeTimers();
    try {
      const { calls, timedOut } = table();
      calls.add(inFlight(1, 100).call);
      calls.add(inFlight(2, 10).call);
      vi.advanceTimersByTime(50);
      expect(timedOut).toEqual([]);
      vi.advanceTimersByTime(60);
      expect(timedOut).toHaveLength(1);
      expect(timedOut[0]).toBeInstanceOf(PrologTimeoutError);
    } finally {
      vi.useRealTimers();
    }
  });
});
