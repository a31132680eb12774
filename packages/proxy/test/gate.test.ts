import { LazyAbortController, LinkedCancellation } from '@rondo/core/internal';
import { describe, expect, it } from 'vitest';
import { Gate, GateSlot } from '../src/gate.js';

describe('Gate', () => {
  it('takes free slots at once, queues the next calls, and refuses one more than the queue holds', async () => {
    const gate = new Gate('up', 1, 1);
    expect(gate.tryAcquire()).toBe(true);
    expect(gate.tryAcquire()).toBe(false);
    const queued = gate.acquire(new LazyAbortController());
    await expect(gate.acquire(new LazyAbortController())).rejects.toThrow(
      'Upstream "up" is busy: 1 calls running and 1 waiting',
    );
    gate.release();
    await queued;
    gate.release();
    expect(gate.tryAcquire()).toBe(true);
  });

  it('lets a queued call go when its cancellation aborts, and refuses one already aborted', async () => {
    const gate = new Gate('up', 1, 4);
    expect(gate.tryAcquire()).toBe(true);
    const caller = new LazyAbortController();
    const passedThrough = new LinkedCancellation(caller);
    const first = gate.acquire(new LazyAbortController());
    const second = gate.acquire(passedThrough);
    const third = gate.acquire(caller);
    caller.abort(new Error('caller left'));
    await expect(second).rejects.toThrow('caller left');
    await expect(third).rejects.toThrow('caller left');
    const aborted = new LazyAbortController();
    aborted.abort();
    // Aborted without a reason, as an AbortSignal would be: an AbortError.
    await expect(gate.acquire(aborted)).rejects.toThrow('This operation was aborted');
    // The aborted waiters left the queue: the slot freed goes to the first, then back to the pool.
    gate.release();
    await first;
    gate.release();
    expect(gate.tryAcquire()).toBe(true);
  });

  it('runs work in a slot and frees it after, when the work fails too', async () => {
    const gate = new Gate('up', 1, 0);
    const cancellation = new LazyAbortController();
    expect(await gate.run(cancellation, async () => 'done')).toBe('done');
    await expect(gate.run(cancellation, () => Promise.reject(new Error('failed')))).rejects.toThrow(
      'failed',
    );
    // Both slots went back: the only slot is free again.
    expect(gate.tryAcquire()).toBe(true);
    await expect(gate.run(cancellation, async () => 'never')).rejects.toThrow('is busy');
  });
});

describe('GateSlot', () => {
  it('takes one slot, gives it back once, and takes it again (a call suspended, then resumed)', async () => {
    const gate = new Gate('up', 1, 0);
    const slot = new GateSlot(gate);
    const cancellation = new LazyAbortController();
    await slot.take(cancellation);
    await slot.take(cancellation); // held already: no second slot
    expect(gate.tryAcquire()).toBe(false);
    slot.free();
    slot.free(); // given back already: the gate is not released twice
    expect(gate.tryAcquire()).toBe(true);
    await expect(slot.take(cancellation)).rejects.toThrow('Upstream "up" is busy');
    gate.release();
    await slot.take(cancellation);
    expect(gate.tryAcquire()).toBe(false);
  });
});
