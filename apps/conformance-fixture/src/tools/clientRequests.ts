import { text, type InputResponseValue, type JsonObject } from '@rondo/protocol';
import type { RondoServer } from '@rondo/core';
import { z } from 'zod';

/**
 * The legacy-era tools that ask the client in the middle of a call (`ctx.elicit`, `ctx.sample`): real
 * server-to-client requests, which only the handshake revisions have. On the modern wire they fail
 * with an error that points at `inputRequired`.
 */
export function addClientRequestTools(server: RondoServer): void {
  server
    .tool(
      'test_sampling',
      {
        description: 'Tests server-initiated sampling (LLM completion request)',
        input: z.object({ prompt: z.string().describe('The prompt to send to the LLM') }),
      },
      async ({ prompt }, ctx) => {
        const answer = await ctx.sample({
          messages: [{ role: 'user', content: text(prompt) }],
          maxTokens: 100,
        });
        const content = answer.content as { type?: string; text?: string };
        return text(
          `LLM response: ${content.type === 'text' ? content.text : JSON.stringify(content)}`,
        );
      },
    )
    .tool(
      'test_elicitation',
      {
        description: 'Tests server-initiated elicitation (user input request)',
        input: z.object({ message: z.string().describe('The message to show the user') }),
      },
      async ({ message }, ctx) => {
        const answer = await ctx.elicit(message, USER_INFO_SCHEMA);
        return text(`User response: ${describeAnswer(answer)}`);
      },
    )
    .tool(
      'test_elicitation_sep1034_defaults',
      { description: 'Tests elicitation with default values for every primitive type (SEP-1034)' },
      async (_args, ctx) => {
        const answer = await ctx.elicit(
          'Please review and update the form fields with defaults',
          DEFAULTS_SCHEMA,
        );
        return text(`Elicitation completed: ${describeAnswer(answer)}`);
      },
    )
    .tool(
      'test_elicitation_sep1330_enums',
      { description: 'Tests elicitation with every enum schema variant (SEP-1330)' },
      async (_args, ctx) => {
        const answer = await ctx.elicit('Please select options from the enum fields', ENUMS_SCHEMA);
        return text(`Elicitation completed: ${describeAnswer(answer)}`);
      },
    );
}

/** `action=..., content={...}`: what the user did with a form. */
export function describeAnswer(answer: InputResponseValue): string {
  if (answer.kind === 'accept') return `action=accept, content=${JSON.stringify(answer.content)}`;
  return `action=${answer.kind}`;
}

const USER_INFO_SCHEMA: JsonObject = {
  type: 'object',
  properties: {
    username: { type: 'string', description: "User's response" },
    email: { type: 'string', description: "User's email address" },
  },
  required: ['username', 'email'],
};

const DEFAULTS_SCHEMA: JsonObject = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'User name', default: 'John Doe' },
    age: { type: 'integer', description: 'User age', default: 30 },
    score: { type: 'number', description: 'User score', default: 95.5 },
    status: {
      type: 'string',
      description: 'User status',
      enum: ['active', 'inactive', 'pending'],
      default: 'active',
    },
    verified: { type: 'boolean', description: 'Verification status', default: true },
  },
};

const options = (prefix: string, titles: string[]) =>
  titles.map((title, index) => ({ const: `${prefix}${index + 1}`, title }));

const ENUMS_SCHEMA: JsonObject = {
  type: 'object',
  properties: {
    untitledSingle: {
      type: 'string',
      description: 'Untitled single-select enum',
      enum: ['option1', 'option2', 'option3'],
    },
    titledSingle: {
      type: 'string',
      description: 'Titled single-select enum',
      oneOf: options('value', ['First Option', 'Second Option', 'Third Option']),
    },
    legacyEnum: {
      type: 'string',
      description: 'Legacy enum with enumNames',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: {
      type: 'array',
      description: 'Untitled multi-select enum',
      minItems: 1,
      maxItems: 3,
      items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    },
    titledMulti: {
      type: 'array',
      description: 'Titled multi-select enum',
      minItems: 1,
      maxItems: 3,
      items: { anyOf: options('value', ['First Choice', 'Second Choice', 'Third Choice']) },
    },
  },
};
