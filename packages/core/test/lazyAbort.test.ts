import { describe, expect, it } from 'vitest';
import { LazyAbortController } from '../src/internal.js';

describe('LazyAbortController', () => {
  it('tells its onAbort listeners once, with the reason, and the signal read later is born aborted', () => {
    const controller = new LazyAbortController();
    const heard: unknown[] = [];
    controller.onAbort((reason) => heard.push(reason));
    const stopped = controller.onAbort(() => heard.push('stopped listener'));
    stopped();
    const reason = new Error('gone');
    controller.abort(reason);
    controller.abort(new Error('again'));
    expect(heard).toEqual([reason]);
    expect(controller.aborted).toBe(true);
    expect(controller.reason).toBe(reason);
    expect(controller.signal.aborted).toBe(true);
    expect(controller.signal.reason).toBe(reason);
  });

  it('fires a signal already read as well as its listeners', () => {
    const controller = new LazyAbortController();
    const signal = controller.signal;
    const heard: string[] = [];
    signal.addEventListener('abort', () => heard.push('signal'));
    controller.onAbort(() => heard.push('listener'));
    expect(controller.reason).toBeUndefined();
    controller.abort('stop');
    expect(heard).toEqual(['signal', 'listener']);
  });
});
