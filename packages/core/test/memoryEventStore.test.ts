import { describe, expect, it } from 'vitest';
import type { JsonRpcMessage } from '@rondo/protocol';
import { createMemoryEventStore, type StoredEvent } from '@rondo/core';

/** The `params` of a stored notification. */
const paramsOf = (event: StoredEvent) =>
  (event.message as Extract<JsonRpcMessage, { method: string }>).params;

const note = (n: number) => ({
  jsonrpc: '2.0' as const,
  method: 'notifications/message',
  params: { n },
});

describe('the in-memory event store', () => {
  it('replays the events after an id, on that id stream only', () => {
    const store = createMemoryEventStore();
    const first = store.append('a', note(1));
    store.append('b', note(99));
    store.append('a', note(2));
    store.append('a', note(3));
    const replay = store.replayAfter(first)!;
    expect(replay.streamId).toBe('a');
    expect(replay.events.map(paramsOf)).toEqual([{ n: 2 }, { n: 3 }]);
  });

  it('keeps at most maxEventsPerStream per stream; ids whose successors were evicted are unknown', () => {
    const store = createMemoryEventStore({ maxEventsPerStream: 2 });
    const ids = [1, 2, 3, 4].map((n) => store.append('a', note(n)));
    expect(store.replayAfter(ids[0]!)).toBeUndefined();
    expect(store.replayAfter(ids[1]!)!.events.map(paramsOf)).toEqual([{ n: 3 }, { n: 4 }]);
  });

  it('keeps at most maxEventsPerSession across one session, its oldest stream first, leaving other sessions alone', () => {
    const store = createMemoryEventStore({ maxEventsPerSession: 3 });
    const other = store.append('s2.0', note(0));
    const a1 = store.append('s1.1', note(1));
    store.append('s1.1', note(2));
    const b1 = store.append('s1.2', note(3));
    store.append('s1.2', note(4));
    // Four events in session s1: the oldest of its oldest stream went (what follows a1 is kept).
    expect(store.replayAfter(a1)!.events.map(paramsOf)).toEqual([{ n: 2 }]);
    expect(store.replayAfter(b1)!.events.map(paramsOf)).toEqual([{ n: 4 }]);
    store.append('s1.2', note(5));
    // Again: the oldest stream's last event went, so a1 can no longer be resumed.
    expect(store.replayAfter(a1)).toBeUndefined();
    expect(store.replayAfter(b1)!.events.map(paramsOf)).toEqual([{ n: 4 }, { n: 5 }]);
    expect(store.replayAfter(other)!.events).toEqual([]);
    store.forget('s1.1');
    store.forget('s1.2');
    // A forgotten session's count is gone with it: three fresh events fit again.
    const c = [6, 7, 8].map((n) => store.append('s1.3', note(n)));
    expect(store.replayAfter(c[0]!)!.events.map(paramsOf)).toEqual([{ n: 7 }, { n: 8 }]);
  });

  it('keeps at most maxEvents in total, evicting the oldest overall', () => {
    const store = createMemoryEventStore({ maxEvents: 3 });
    const a1 = store.append('a', note(1));
    store.append('a', note(2));
    const b1 = store.append('b', note(3));
    store.append('b', note(4));
    store.append('a', note(5));
    // Gone: a's first two events. After a1 we would need a2, which is evicted.
    expect(store.replayAfter(a1)).toBeUndefined();
    expect(store.replayAfter(b1)!.events.map(paramsOf)).toEqual([{ n: 4 }]);
  });

  // Issue 31, point 4: bytes as well as counts.
  const big = (n: number, size: number) => ({
    jsonrpc: '2.0' as const,
    method: 'notifications/message',
    params: { n, data: 'x'.repeat(size) },
  });
  /** The JSON bytes a replay after `id` carries. */
  const replayedBytes = (store: ReturnType<typeof createMemoryEventStore>, id: string) =>
    (store.replayAfter(id)?.events ?? []).reduce(
      (sum, event) => sum + JSON.stringify(event.message).length,
      0,
    );

  it('keeps at most maxEventBytesPerStream of a stream, the oldest forgotten first', () => {
    const store = createMemoryEventStore({ maxEventBytesPerStream: 10_000 });
    const ids = [1, 2, 3, 4, 5].map((n) => store.append('a', big(n, 3_000)));
    // Three events of about 3 kB fit in 10 kB: the first two are gone, so is the id before them.
    expect(store.replayAfter(ids[0]!)).toBeUndefined();
    expect(store.replayAfter(ids[1]!)!.events.map((event) => paramsOf(event)?.n)).toEqual([
      3, 4, 5,
    ]);
    // An event larger than the budget alone is sent but not kept.
    const last = store.append('a', big(6, 20_000));
    expect(store.replayAfter(ids[4]!)).toBeUndefined();
    // A client that received it is up to date: nothing follows it.
    expect(store.replayAfter(last)!.events).toEqual([]);
  });

  it('keeps at most maxEventBytesPerSession across a session, leaving other sessions alone', () => {
    const store = createMemoryEventStore({ maxEventBytesPerSession: 10_000 });
    const other = store.append('s2.0', big(0, 10));
    store.append('s2.0', big(0, 3_000));
    const first = store.append('s1.1', big(1, 10));
    for (let n = 2; n < 20; n += 1) store.append(`s1.${n % 3}`, big(n, 3_000));
    expect(store.replayAfter(first)).toBeUndefined();
    expect(store.replayAfter(other)!.events).toHaveLength(1);
  });

  it('keeps at most maxEventBytes in total under a flood, the oldest overall first', () => {
    const store = createMemoryEventStore({ maxEventBytes: 1_000_000 });
    const firsts: string[] = [];
    // 120 sessions each streaming 100 kB, 12 MB in all.
    for (let session = 0; session < 120; session += 1) {
      firsts.push(store.append(`s${session}.0`, big(0, 10)));
      store.append(`s${session}.0`, big(1, 100_000));
    }
    const kept = firsts.reduce((sum, id) => sum + replayedBytes(store, id), 0);
    expect(kept).toBeLessThanOrEqual(1_000_000);
    expect(kept).toBeGreaterThan(500_000);
    expect(store.replayAfter(firsts[0]!)).toBeUndefined();
    expect(store.replayAfter(firsts[119]!)!.events).toHaveLength(1);
  });

  it('forgets a stream and rejects ids it never issued', () => {
    const store = createMemoryEventStore();
    const id = store.append('a', note(1));
    store.forget('a');
    expect(store.replayAfter(id)).toBeUndefined();
    expect(store.replayAfter('nonsense')).toBeUndefined();
  });
});
