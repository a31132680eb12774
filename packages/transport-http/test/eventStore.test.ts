import { describe, expect, it } from 'vitest';
import type { JsonRpcMessage } from '@rondo/protocol';
import { createMemoryEventStore, type StoredEvent } from '@rondo/transport-http';

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

  it('forgets a stream and rejects ids it never issued', () => {
    const store = createMemoryEventStore();
    const id = store.append('a', note(1));
    store.forget('a');
    expect(store.replayAfter(id)).toBeUndefined();
    expect(store.replayAfter('nonsense')).toBeUndefined();
  });
});
