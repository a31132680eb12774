import { inputRequired, messages, message, text, type JsonObject } from '@rondo/protocol';
import type { RondoServer } from '@rondo/core';
import { acceptedField, askConfirm, askModel, sampledText } from './rounds.js';

/**
 * Tools the suite's stateless and schema scenarios probe: a tool that needs sampling (the
 * missing-capability check), one that asks mid-call (no server-to-client request may appear on the
 * stream), triggers for list changes, a parameter mirrored in an HTTP header (`x-mcp-header`), and
 * a JSON Schema 2020-12 input schema.
 */
export function addDiagnosticTools(server: RondoServer): void {
  server
    .tool(
      'test_missing_capability',
      { description: 'Needs the sampling capability; a client without it gets -32021' },
      (_args, ctx) => {
        const answer = sampledText(ctx.inputResponses.needs_sampling);
        if (answer === undefined)
          return inputRequired([askModel('needs_sampling', 'Say hello', 20)]);
        return text(`Sampled: ${answer}`);
      },
    )
    .tool(
      'test_streaming_elicitation',
      {
        description:
          'Asks the user mid-call, through input_required rather than a request on the stream',
      },
      (_args, ctx) => {
        const ok = acceptedField(ctx.inputResponses.confirm, 'ok');
        if (typeof ok !== 'boolean') return inputRequired([askConfirm()]);
        return text(`Confirmed: ${ok}`);
      },
    )
    .tool(
      'test_trigger_tool_change',
      { description: 'Adds or removes test_dynamic_tool, so the tool list changes' },
      () => text(toggleDynamicTool(server)),
    )
    .tool(
      'test_trigger_prompt_change',
      { description: 'Adds or removes test_dynamic_prompt, so the prompt list changes' },
      () => text(toggleDynamicPrompt(server)),
    )
    .tool(
      'test_custom_header',
      {
        description: 'Echoes `text`, which HTTP clients also send in the Mcp-Param-Text header',
        input: {
          type: 'object',
          properties: { text: { type: 'string', 'x-mcp-header': 'Text' } },
          required: ['text'],
        },
      },
      ({ text: value }) => text(`Echo: ${String(value)}`),
    )
    .tool(
      'json_schema_2020_12_tool',
      {
        description: 'Tool whose input schema uses JSON Schema 2020-12 keywords',
        input: CONTACT_SCHEMA,
      },
      (args) => text(`Received contact: ${JSON.stringify(args)}`),
    );
}

function toggleDynamicTool(server: RondoServer): string {
  if (server.removeTool('test_dynamic_tool')) return 'Removed test_dynamic_tool';
  server.tool('test_dynamic_tool', { description: 'A tool added at run time' }, () =>
    text('This is a dynamically registered tool'),
  );
  return 'Added test_dynamic_tool';
}

function toggleDynamicPrompt(server: RondoServer): string {
  if (server.removePrompt('test_dynamic_prompt')) return 'Removed test_dynamic_prompt';
  server.prompt('test_dynamic_prompt', { description: 'A prompt added at run time' }, () =>
    messages([message('user', 'This is a dynamically registered prompt')]),
  );
  return 'Added test_dynamic_prompt';
}

const CONTACT_SCHEMA: JsonObject = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  additionalProperties: false,
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
};
