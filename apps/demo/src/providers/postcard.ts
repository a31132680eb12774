import { z } from 'zod';
import type { RondoServer } from '@rondo/core';
import {
  formElicitation,
  inputRequest,
  inputRequired,
  text,
  type JsonObject,
} from '@rondo/protocol';

/**
 * The confirmation form. It deliberately uses one field of each kind the playground must render
 * (boolean, titled single choice, multi-select, integer with a default, free text) so the demo shows
 * the whole elicitation schema vocabulary in one dialog.
 */
const confirmationSchema: JsonObject = {
  type: 'object',
  properties: {
    confirm: { type: 'boolean', title: 'Send it?', description: 'Tick to send the postcard' },
    delivery: {
      type: 'string',
      title: 'Delivery',
      oneOf: [
        { const: 'standard', title: 'Standard (3 days)' },
        { const: 'express', title: 'Express (next day)' },
      ],
      default: 'standard',
    },
    extras: {
      type: 'array',
      title: 'Extras',
      items: { type: 'string', enum: ['stamp', 'sticker', 'perfume'] },
    },
    copies: { type: 'integer', title: 'Copies', minimum: 1, maximum: 5, default: 1 },
    signature: { type: 'string', title: 'Signature', description: 'How to sign the card' },
  },
  required: ['confirm', 'delivery'],
};

/**
 * Registers `send_postcard`: a tool that asks the user to confirm through a form before it acts.
 * The handler is a round hook: modern clients get an MRTR `input_required` result, legacy clients get
 * a real `elicitation/create` request from the legacy shim, and this code does not know which.
 */
export function addPostcardTool(server: RondoServer): void {
  server.tool(
    'send_postcard',
    {
      title: 'Send a postcard',
      description:
        'Writes a postcard, then asks you to confirm (through elicitation) before sending it.',
      input: z.object({
        to: z.string().min(1).describe('Who gets the postcard'),
        message: z.string().describe('What the card says'),
      }),
    },
    ({ to, message }, ctx) => {
      const answer = ctx.inputResponses.confirm;
      if (!answer) {
        const prompt = `Send a postcard to ${to} saying "${message}"?`;
        return inputRequired([
          inputRequest('confirm', formElicitation(prompt, confirmationSchema)),
        ]);
      }
      if (answer.kind !== 'accept')
        return text(`Postcard to ${to} not sent: you chose ${answer.kind}.`);
      const form = answer.content;
      if (form.confirm !== true) return text(`Postcard to ${to} not sent: not confirmed.`);
      const extras =
        Array.isArray(form.extras) && form.extras.length > 0
          ? ` with ${form.extras.filter((extra) => typeof extra === 'string').join(', ')}`
          : '';
      const copies = typeof form.copies === 'number' ? form.copies : 1;
      const signed =
        typeof form.signature === 'string' && form.signature ? `, signed "${form.signature}"` : '';
      return text(
        `Postcard sent to ${to}: ${copies} × ${typeof form.delivery === 'string' ? form.delivery : 'standard'}${extras}${signed}.`,
      );
    },
  );
}
