import { z } from 'zod';
import type { RondoServer } from '@rondo/core';
import { text } from '@rondo/protocol';

/** Waits, but wakes up early when the request is cancelled, so a cancelled call stops promptly. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

const STEPS = ['Boiling water', 'Warming the pot', 'Steeping', 'Pouring', 'Adding milk'];

/**
 * Registers `brew_tea`: a slow tool that reports progress. Progress reaches the client only when its
 * request carried a `progressToken`; the handler just calls `ctx.progress` either way.
 */
export function addTeaTimer(server: RondoServer): void {
  server.tool(
    'brew_tea',
    {
      title: 'Brew tea (progress)',
      description: 'Takes a few seconds and reports progress notifications while it works.',
      input: z.object({
        seconds: z
          .number()
          .int()
          .min(1)
          .max(20)
          .default(3)
          .describe('How long the whole brew takes'),
      }),
    },
    async ({ seconds }, ctx) => {
      const stepMs = (seconds * 1000) / STEPS.length;
      for (const [index, step] of STEPS.entries()) {
        if (ctx.signal.aborted) return text('Brewing cancelled.');
        ctx.progress(index, STEPS.length, step);
        await sleep(stepMs, ctx.signal);
      }
      ctx.progress(STEPS.length, STEPS.length, 'Done');
      return text(`Your tea is ready after ${seconds} s.`);
    },
  );
}
