import { runtimeOf } from '@rondo/core/internal';
import { type } from 'arktype';
import * as v from 'valibot';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { complete, error, structured, text } from '@rondo/protocol';
import { ConfigurationError, createServer, type RondoServer } from '@rondo/core';
import { testContext } from './testContext.js';

const quiet = { log: () => undefined };

/** A server with the tool `add` taking `input` and the tool `half` answering through `output`. */
async function adder(
  input: Parameters<RondoServer['tool']>[1]['input'],
  output: Parameters<RondoServer['tool']>[1]['output'],
): Promise<RondoServer> {
  const server = createServer({ name: 'standard', version: '1.0.0', ...quiet })
    .tool('add', { input }, (args) => {
      const { a, b } = args as { a: number; b: number };
      return text(String(a + b));
    })
    .tool('half', { input: { type: 'object' }, output }, () => structured({ half: 'x' }));
  await runtimeOf(server).ready();
  return server;
}

const objectOfNumbers = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
};

// Issue 29: the peers (the official SDK 2.4, fastmcp) take any Standard Schema.
describe.each([
  {
    library: 'zod 4',
    input: z.object({ a: z.number(), b: z.number() }),
    output: z.object({ half: z.number() }),
  },
  {
    library: 'Valibot (toStandardJsonSchema)',
    input: toStandardJsonSchema(v.object({ a: v.number(), b: v.number() })),
    output: toStandardJsonSchema(v.object({ half: v.number() })),
  },
  {
    library: 'ArkType',
    input: type({ a: 'number', b: 'number' }),
    output: type({ half: 'number' }),
  },
])('issue 29: a tool schema from $library', ({ input, output }) => {
  it('is listed as its JSON Schema, without $schema', async () => {
    const server = await adder(input, output);
    const [add, half] = runtimeOf(server).catalog.tools.map((entry) => entry.definition);
    expect(add?.inputSchema).toMatchObject(objectOfNumbers);
    expect(add?.inputSchema).not.toHaveProperty('$schema');
    expect(half?.outputSchema).toMatchObject({
      type: 'object',
      properties: { half: { type: 'number' } },
    });
  });

  it('validates arguments with its library and passes the parsed value on', async () => {
    const server = await adder(input, output);
    expect(await runtimeOf(server).callTool('add', { a: 2, b: 3 }, testContext())).toEqual(
      complete(text('5')),
    );
  });

  it('answers bad arguments like zod does: a tool error naming the field', async () => {
    const server = await adder(input, output);
    const outcome = await runtimeOf(server).callTool('add', { a: 'two', b: 3 }, testContext());
    expect(outcome).toMatchObject({ kind: 'complete', result: { kind: 'error' } });
    const message = (outcome as { result: { text: string } }).result.text;
    expect(message).toMatch(/^Invalid arguments for tool "add": a: \S/);
  });

  it('holds structured output to the output schema', async () => {
    const server = await adder(input, output);
    const outcome = await runtimeOf(server).callTool('half', {}, testContext());
    expect(outcome).toMatchObject({
      result: { kind: 'error', text: expect.stringMatching(/does not match its outputSchema/) },
    });
  });
});

describe('issue 29: Standard Schemas at the edges', () => {
  it('refuses a Valibot schema with no JSON Schema export, naming the converter', () => {
    let thrown: unknown;
    try {
      createServer({ name: 's', version: '1', ...quiet }).tool(
        'add',
        { input: v.object({ a: v.number() }) },
        () => text(''),
      );
    } catch (failure) {
      thrown = failure;
    }
    expect(thrown).toBeInstanceOf(ConfigurationError);
    expect((thrown as Error).message).toBe(
      'tool "add": the valibot schema exports no JSON Schema, which clients need; wrap it with its converter (Valibot: toStandardJsonSchema from @valibot/to-json-schema)',
    );
  });

  it('types handler arguments from a Standard Schema', async () => {
    const server = createServer({ name: 's', version: '1', ...quiet }).tool(
      'shout',
      { input: type({ word: 'string' }) },
      ({ word }) => text(word.toUpperCase()),
    );
    await runtimeOf(server).ready();
    expect(await runtimeOf(server).callTool('shout', { word: 'hi' }, testContext())).toEqual(
      complete(text('HI')),
    );
  });

  it('awaits a Standard Schema that validates asynchronously', async () => {
    const asyncSchema = {
      '~standard': {
        version: 1 as const,
        vendor: 'async-test',
        validate: (value: unknown) =>
          Promise.resolve(
            (value as { ok?: unknown }).ok === true
              ? { value: value as { ok: true } }
              : { issues: [{ message: 'must be true', path: [{ key: 'ok' }] }] },
          ),
        jsonSchema: { input: () => ({ type: 'object', properties: { ok: { type: 'boolean' } } }) },
      },
    };
    const server = createServer({ name: 's', version: '1', ...quiet }).tool(
      'check',
      { input: asyncSchema },
      () => text('passed'),
    );
    await runtimeOf(server).ready();
    expect(await runtimeOf(server).callTool('check', { ok: true }, testContext())).toEqual(
      complete(text('passed')),
    );
    expect(await runtimeOf(server).callTool('check', { ok: false }, testContext())).toEqual(
      complete(error('Invalid arguments for tool "check": ok: must be true')),
    );
  });
});
