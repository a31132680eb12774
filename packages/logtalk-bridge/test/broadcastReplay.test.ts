import { describe, expect, it } from 'vitest';
import { BroadcastReplay } from '../src/broadcastReplay.js';
import type { BroadcastLog } from '../src/workerContract.js';

describe('BroadcastReplay', () => {
  it("replays the other workers' goals once each, in order, never a worker's own", () => {
    const log: BroadcastLog = { goals: [] };
    const first = new BroadcastReplay(1, log);
    const second = new BroadcastReplay(2, log);
    first.record('assertz(a)');
    second.record('assertz(b)');
    first.record('assertz(c)');
    const replayed: string[] = [];
    second.catchUp((message) => replayed.push(message.goal));
    second.catchUp((message) => replayed.push(`again ${message.goal}`));
    expect(replayed).toEqual(['assertz(a)', 'assertz(c)']);
    // A replacement worker, started after the goals were run, catches up on all of them.
    const replacement = new BroadcastReplay(3, log);
    const caughtUp: string[] = [];
    replacement.catchUp((message) => caughtUp.push(message.goal));
    expect(caughtUp).toEqual(['assertz(a)', 'assertz(b)', 'assertz(c)']);
  });
});
