import { describe, expect, it, vi } from 'vitest';
import type { StoredEvent } from '@rondo/core';
import type { JsonRpcMessage } from '@rondo/protocol';
import { closeAll, openStates, redisCommand, useRedisServer } from './support/harness.js';

const note = (n: number): JsonRpcMessage => ({ jsonrpc: '2.0', method: 'n', params: { n } });
const numbers = (events: StoredEvent[]) =>
  events.map((event) => (event.message as unknown as { params: { n: number } }).params.n);

describe('following streams other processes append to', () => {
  const redis = useRedisServer();

  it('delivers, in order, what another process appends after a given event', async () => {
    const [reader, writer] = await openStates(redis().url, 2);
    const start = (await writer!.events.append('s.get', undefined))!;
    await writer!.events.append('s.get', note(0));
    const seen: StoredEvent[] = [];
    const stop = reader!.events.follow!('s.get', start, (event) => seen.push(event));
    for (let n = 1; n < 20; n += 1) await writer!.events.append('s.get', note(n));
    await vi.waitFor(() => expect(seen).toHaveLength(20));
    expect(numbers(seen)).toEqual(Array.from({ length: 20 }, (_, n) => n));
    expect(seen[19]?.id).toMatch(/^s\.get:/);
    stop();
    await writer!.events.append('s.get', note(99));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).toHaveLength(20);
    await closeAll([reader!, writer!]);
  });

  it('delivers an event larger than maxEventBytesPerStream to a process following the stream', async () => {
    const [reader, writer] = await openStates(redis().url, 2, { maxEventBytesPerStream: 1_000 });
    const start = (await writer!.events.append('s.get', undefined))!;
    const seen: StoredEvent[] = [];
    const stop = reader!.events.follow!('s.get', start, (event) => seen.push(event));
    const big: JsonRpcMessage = {
      jsonrpc: '2.0',
      method: 'n',
      params: { n: 7, pad: 'z'.repeat(5_000) },
    };
    await writer!.events.append('s.get', big);
    await vi.waitFor(() => expect(numbers(seen)).toEqual([7]));
    stop();
    await closeAll([reader!, writer!]);
  });

  it('follows a thousand streams with one blocking connection', async () => {
    const [reader, writer] = await openStates(redis().url, 2);
    const seen = new Map<string, number[]>();
    const stops: (() => void)[] = [];
    for (let index = 0; index < 1_000; index += 1) {
      const streamId = `s${index}.get`;
      const start = (await writer!.events.append(streamId, undefined))!;
      stops.push(
        reader!.events.follow!(streamId, start, (event) =>
          seen.set(streamId, [...(seen.get(streamId) ?? []), ...numbers([event])]),
        ),
      );
    }
    await Promise.all(
      Array.from({ length: 1_000 }, async (_, index) =>
        writer!.events.append(`s${index}.get`, note(index)),
      ),
    );
    await vi.waitFor(() => expect(seen.size).toBe(1_000), { timeout: 10_000 });
    expect(seen.get('s7.get')).toEqual([7]);
    const clients = String(await redisCommand(redis().url, ['CLIENT', 'LIST']));
    // Two processes of three connections each (commands, pub/sub, blocking reads), and the one
    // asking: none per stream.
    expect(clients.trim().split('\n')).toHaveLength(7);
    for (const stop of stops) stop();
    await closeAll([reader!, writer!]);
  });

  it('follows from now when given no event id, and two follows of one stream each get every event', async () => {
    const [reader, writer] = await openStates(redis().url, 2);
    await writer!.events.append('s.get', note(-1));
    const first: StoredEvent[] = [];
    const second: StoredEvent[] = [];
    reader!.events.follow!('s.get', undefined, (event) => first.push(event));
    // Let the follow be taken up before appending.
    await vi.waitFor(async () => expect(await blockedClients(redis().url)).toBe(1));
    await writer!.events.append('s.get', note(0));
    await vi.waitFor(() => expect(numbers(first)).toEqual([0]));
    const from = first[0]!.id;
    reader!.events.follow!('s.get', from, (event) => second.push(event));
    // A third follow, from now, of a stream already read: it never sees what came before.
    const third: StoredEvent[] = [];
    reader!.events.follow!('s.get', undefined, (event) => third.push(event));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await writer!.events.append('s.get', note(1));
    await vi.waitFor(() => expect(numbers(second)).toEqual([1]));
    await vi.waitFor(() => expect(numbers(first)).toEqual([0, 1]));
    await vi.waitFor(() => expect(numbers(third)).toEqual([1]));
    await closeAll([reader!, writer!]);
  });

  it('goes on after a Redis restart, from the last delivered event, telling onError once', async () => {
    const [reader, writer] = await openStates(redis().url, 2);
    const seen: StoredEvent[] = [];
    const errors: Error[] = [];
    const start = (await writer!.events.append('r.get', undefined))!;
    reader!.events.follow!(
      'r.get',
      start,
      (event) => seen.push(event),
      (error) => errors.push(error),
    );
    await writer!.events.append('r.get', note(0));
    await vi.waitFor(() => expect(numbers(seen)).toEqual([0]));
    await redis().restart();
    await vi.waitFor(() => expect(errors.length).toBeGreaterThan(0));
    // Once the writer is back, what it appends reaches the reader again.
    await vi.waitFor(
      async () => expect(await writer!.events.append('r.get', note(1))).toBeDefined(),
      {
        timeout: 5_000,
      },
    );
    await vi.waitFor(() => expect(numbers(seen)).toEqual([0, 1]), { timeout: 5_000 });
    expect(errors).toHaveLength(1);
    expect(errors[0]?.name).toBe('SharedStateError');
    await closeAll([reader!, writer!]);
  });
});

async function blockedClients(url: string): Promise<number> {
  const info = String(await redisCommand(url, ['INFO', 'clients']));
  return Number(/blocked_clients:(\d+)/.exec(info)?.[1] ?? 0);
}
