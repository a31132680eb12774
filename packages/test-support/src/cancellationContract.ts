import { afterEach, describe, expect, it } from 'vitest';
import type { Cancellation } from '@rondo/core';

/** One implementation of {@link Cancellation}, fresh, with the way its owner aborts it. */
export interface OpenedCancellation {
  readonly cancellation: Cancellation;
  /**
   * Aborts it as its owner does (a client's cancel, a closed connection, middleware stopping the
   * handler). Returns the reason the owner gave, when the test chose it; `undefined` when the
   * owner makes its own (then only its sameness everywhere is checked).
   */
  abort(): unknown;
}

/**
 * The rules every {@link Cancellation} keeps, run against one implementation: `open()` gives a
 * fresh one, not aborted (or a promise of one). They are an `AbortSignal`'s rules (a listener added after the abort is
 * never called; the first reason stays), plus the one that makes the shape worth having: nothing
 * but reading `signal` makes an `AbortSignal`.
 */
export function describeCancellationContract(
  name: string,
  open: () => OpenedCancellation | Promise<OpenedCancellation>,
): void {
  describe(`the cancellation contract: ${name}`, () => {
    it('is not aborted before its owner aborts it, and neither is its signal', async () => {
      const { cancellation } = await open();
      expect(cancellation.aborted).toBe(false);
      expect(cancellation.reason).toBeUndefined();
      expect(cancellation.signal.aborted).toBe(false);
    });

    it('tells each listener once, in the order they came, with the reason it keeps', async () => {
      const opened = await open();
      const { cancellation } = opened;
      const heard: [string, unknown][] = [];
      cancellation.onAbort((reason) => heard.push(['first', reason]));
      cancellation.onAbort((reason) => heard.push(['second', reason]));
      const given = opened.abort();
      const reason = cancellation.reason;
      expect(cancellation.aborted).toBe(true);
      expect(reason).toBeDefined();
      if (given !== undefined) expect(reason).toBe(given);
      expect(heard).toEqual([
        ['first', reason],
        ['second', reason],
      ]);
      // A second abort changes nothing: no listener is told twice, the first reason stays.
      opened.abort();
      expect(heard).toHaveLength(2);
      expect(cancellation.reason).toBe(reason);
    });

    it('does not tell a listener that stopped listening', async () => {
      const opened = await open();
      const heard: string[] = [];
      const stop = opened.cancellation.onAbort(() => heard.push('stopped'));
      opened.cancellation.onAbort(() => heard.push('kept'));
      stop();
      opened.abort();
      expect(heard).toEqual(['kept']);
    });

    it('never tells a listener added after the abort, and its stop function does nothing', async () => {
      const opened = await open();
      opened.abort();
      const heard: unknown[] = [];
      const stop = opened.cancellation.onAbort((reason) => heard.push(reason));
      expect(() => stop()).not.toThrow();
      expect(heard).toEqual([]);
      expect(opened.cancellation.aborted).toBe(true);
    });

    it('fires a signal read before the abort once, with the same reason', async () => {
      const opened = await open();
      const signal = opened.cancellation.signal;
      let fired = 0;
      signal.addEventListener('abort', () => (fired += 1));
      opened.abort();
      opened.abort();
      expect(fired).toBe(1);
      expect(signal.aborted).toBe(true);
      expect(signal.reason).toBe(opened.cancellation.reason);
    });

    it('makes a signal read after the abort born aborted, with the same reason', async () => {
      const opened = await open();
      opened.abort();
      expect(opened.cancellation.signal.aborted).toBe(true);
      expect(opened.cancellation.signal.reason).toBe(opened.cancellation.reason);
    });

    describe('without an AbortSignal', () => {
      const Original = globalThis.AbortController;
      let made = 0;
      afterEach(() => {
        globalThis.AbortController = Original;
      });

      it('hears an abort, and tells whether one happened, without making an AbortSignal', async () => {
        // Counted from here on: opening may set up what its owner needs.
        const opened = await open();
        made = 0;
        globalThis.AbortController = class extends Original {
          constructor() {
            super();
            made += 1;
          }
        };
        const heard: unknown[] = [];
        expect(opened.cancellation.aborted).toBe(false);
        opened.cancellation.onAbort((reason) => heard.push(reason));
        opened.abort();
        expect(opened.cancellation.aborted).toBe(true);
        expect(heard).toEqual([opened.cancellation.reason]);
        expect(made).toBe(0);
      });
    });
  });
}
