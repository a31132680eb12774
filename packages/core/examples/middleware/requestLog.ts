import type { Middleware } from '@rondo/core';

/** One line per call: what was asked, by whom, in which era, how it ended and how long it took. */
export interface CallRecord {
  method: string;
  era: string;
  round: number;
  principal: string | undefined;
  outcome: 'ok' | 'error';
  ms: number;
}

/** Logs every call the server handles, in both eras, to `write` (say, a JSON logger). */
export function requestLog(write: (record: CallRecord) => void): Middleware {
  return async (call, next) => {
    const started = performance.now();
    const record = (outcome: CallRecord['outcome']): void =>
      write({
        method: call.method,
        era: call.era,
        round: call.round,
        principal: call.principal?.id,
        outcome,
        ms: performance.now() - started,
      });
    try {
      const result = await next();
      record('ok');
      return result;
    } catch (failure) {
      record('error');
      throw failure;
    }
  };
}
