import type { RondoServer } from '@rondo/core';
import { formElicitation, inputRequest, inputRequired, structured, text } from '@rondo/protocol';
import { z } from 'zod';
import { confirmForm, textObjectSchema, fillerDescription, fillerToolNames } from './catalog.js';

/**
 * The TypeScript tools every Rondo contender serves: echo, a 3-round MRTR tool, and fillers. A
 * `readOnlyEcho` is annotated `readOnlyHint`, so a response cache may keep its answers.
 */
export function addNativeTools(server: RondoServer, fillers: number, readOnlyEcho = false): void {
  server.tool(
    'echo',
    {
      description: 'Echoes its text.',
      input: z.object({ text: z.string() }),
      ...(readOnlyEcho ? { annotations: { readOnlyHint: true } } : {}),
    },
    ({ text: value }) => structured({ text: value }, [text(value)]),
  );
  // Three rounds: two questions (q1, q2) carried by a sealed state, then the answer.
  server.tool(
    'mrtr',
    { description: 'Asks twice, then echoes.', input: z.object({ text: z.string() }) },
    (args, ctx) => {
      const step = typeof ctx.requestState === 'number' ? ctx.requestState : 0;
      if (step < 2) {
        return inputRequired(
          [inputRequest(`q${step + 1}`, formElicitation('Go on?', confirmForm()))],
          step + 1,
        );
      }
      return structured({ text: args.text }, [text(args.text)]);
    },
  );
  for (const name of fillerToolNames(fillers)) {
    server.tool(name, { description: fillerDescription(name), input: textObjectSchema() }, () =>
      text(name),
    );
  }
}
