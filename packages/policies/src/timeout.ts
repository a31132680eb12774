import { ErrorCode, McpError } from '@rondo/protocol';
import type { Middleware } from '@rondo/core';

/** Options of {@link callTimeout}. */
export interface CallTimeoutOptions {
  /** The time one call may take, in ms (0: no limit), for calls no other setting names. */
  ms: number;
  /** Per tool, in ms, in place of `ms` (0: no limit for that tool). */
  tools?: Readonly<Record<string, number>>;
  /** The methods timed (default `tools/call`, `prompts/get`, `resources/read`). */
  methods?: readonly string[];
}

const DEFAULT_METHODS = ['tools/call', 'prompts/get', 'resources/read'];

/**
 * Ends a call that takes too long: its handler's signal aborts (a Prolog goal is interrupted, a
 * TypeScript handler that reads `ctx.signal` stops) and the client gets -32603 with
 * `data.timeoutMs`. Each round of a multi-round call has its own time.
 */
export function callTimeout(options: CallTimeoutOptions): Middleware {
  const methods = new Set(options.methods ?? DEFAULT_METHODS);
  return async (call, next) => {
    if (!methods.has(call.method)) return next();
    const name = call.method === 'tools/call' ? String(call.params.name) : undefined;
    const ms = (name !== undefined ? options.tools?.[name] : undefined) ?? options.ms;
    if (!(ms > 0)) return next();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        const what = name !== undefined ? `tool "${name}"` : call.method;
        const failure = new McpError(
          ErrorCode.InternalError,
          `Timed out: ${what} did not finish within ${ms} ms`,
          { timeoutMs: ms },
        );
        call.stop(failure);
        reject(failure);
      }, ms);
    });
    try {
      return await Promise.race([next(), expired]);
    } finally {
      clearTimeout(timer);
    }
  };
}
