import { LazyAbortController } from '@rondo/core/internal';
import { describe, expect, it } from 'vitest';
import { Gate, GateSlot } from '../src/gate.js';

describe('Gate', () => {
  it('takes free slots at once, queues the next calls, and refuses one more than the queue holds', async () => {
    const gate = new Gate('up', 1, 1);
    expect(gate.tryAcquire()).toBe(true);
    expect(gate.tryAcquire()).toBe(false);
    const queued = gate.acquire(new AbortController().signal);
    await expect(gate.acquire(new LazyAbortController())).rejects.toThrow(
      'Upstream "up" is busy: 1 calls running and 1 waiting',
    );
    gate.release();
    await queued;
    gate.release();
    expect(gate.tryAcquire()).toBe(true);
  });

  it('lets a queued call go when its cancellation or signal aborts, and refuses one already aborted', async () => {
    const gate = new Gate('up', 1, 4);
    expect(gate.tryAcquire()).toBe(true);
    const cancellation = new LazyAbortController();
    const controller = new AbortController();
    const first = gate.acquire(cancellation);
    const second = gate.acquire(controller.signal);
    cancellation.abort(new Error('caller left'));
    controller.abort(new Error('signal fired'));
    await expect(first).rejects.toThrow('caller left');
    await expect(second).rejects.toThrow('signal fired');
    const aborted = new LazyAbortController();
    aborted.abort();
    await expect(gate.acquire(aborted)).rejects.toThrow('The call was cancelled');
    // The aborted waiters left the queue: the slot freed goes back to the pool.
    gate.release();
    expect(gate.tryAcquire()).toBe(true);
  });

  it('runs work in a slot and frees it after, when the work fails too', async () => {
    const gate = new Gate('up', 1, 0);
    const signal = new AbortController().signal;
    expect(await gate.run(signal, async () => 'done')).toBe('done');
    await expect(gate.run(signal, () => Promise.reject(new Error('failed')))).rejects.toThrow(
      'failed',
    );
    // Both slots went back: the only slot is free again.
    expect(gate.tryAcquire()).toBe(true);
    await expect(gate.run(signal, async () => 'never')).rejects.toThrow('is busy');
  });
});

describe('GateSlot', () => {
  it('takes one slot, gives it back once, and takes it again (a call suspended, then resumed)', async () => {
    const gate = new Gate('up', 1, 0);
    const slot = new GateSlot(gate);
    const signal = new AbortController().signal;
    await slot.take(signal);
    await slot.take(signal); // held already: no second slot
    expect(gate.tryAcquire()).toBe(false);
    slot.free();
    slot.free(); // given back already: the gate is not released twice
    expect(gate.tryAcquire()).toBe(true);
    await expect(slot.take(signal)).rejects.toThrow('Upstream "up" is busy');
    gate.release();
    await slot.take(signal);
    expect(gate.tryAcquire()).toBe(false);
  });
});
