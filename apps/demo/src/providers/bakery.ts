import { z } from 'zod';
import type { RondoServer } from '@rondo/core';
import { formElicitation, inputRequest, inputRequired, text } from '@rondo/protocol';

/** Waits, but wakes up early when the call (or its task) is cancelled. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

const BEFORE = ['Mixing the dough', 'Kneading'];
const AFTER = ['Proving', 'Baking', 'Cooling'];
const STEPS = BEFORE.length + AFTER.length;
const SEEDS_FORM = {
  type: 'object',
  properties: { seeds: { type: 'boolean', title: 'Add seeds?' } },
  required: ['seeds'],
};

/**
 * Registers `bake_bread`: a long-running tool that runs as a task for a client that declares the
 * Tasks extension (the playground does). It reports each step as progress (the task's status
 * message), asks half way whether to add seeds (the task waits in `input_required` until the
 * client answers with `tasks/update`), and stops when the task is cancelled. Any other client
 * gets the same tool as an ordinary call: progress, and the question as an ordinary round.
 */
export function addBakery(server: RondoServer): void {
  server.tool(
    'bake_bread',
    {
      title: 'Bake bread (task)',
      description: 'Takes several seconds, asks a question half way; runs as a task when it can.',
      input: z.object({
        stepSeconds: z.number().min(0.1).max(10).default(1).describe('How long each step takes'),
      }),
      task: 'optional',
    },
    async ({ stepSeconds }, ctx) => {
      const seeds = ctx.inputResponses.seeds;
      const steps = seeds === undefined ? BEFORE : AFTER;
      const first = seeds === undefined ? 0 : BEFORE.length;
      for (const [index, step] of steps.entries()) {
        if (ctx.signal.aborted) return text('Baking stopped.');
        ctx.progress(first + index, STEPS, step);
        await sleep(stepSeconds * 1000, ctx.signal);
      }
      if (ctx.signal.aborted) return text('Baking stopped.');
      if (seeds === undefined) {
        return inputRequired([
          inputRequest('seeds', formElicitation('Add seeds to the bread?', SEEDS_FORM)),
        ]);
      }
      const seeded = seeds.kind === 'accept' && seeds.content.seeds === true;
      ctx.progress(STEPS, STEPS, 'Done');
      return text(`Your ${seeded ? 'seeded ' : ''}loaf is ready.`);
    },
  );
}
