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
