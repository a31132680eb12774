import { runtimeOf } from '@rondo/core/internal';
import { type } from 'arktype';
import * as v from 'valibot';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { complete, message, messages } from '@rondo/protocol';
import { PromptDefinitionError, createServer, type RondoServer } from '@rondo/core';
import { testContext } from './testContext.js';

// Issue 29: prompts take the same Standard Schemas as tools. Prompt arguments are strings on the
// wire, so the schema must be an object of string fields: the `arguments` list is derived from it
// and the arguments are checked with it. The type assertions are checked by `pnpm typecheck`.

const quiet = { log: () => undefined };
const ctx = testContext();

/** A server with the prompt `greet`, declared by `schema` (who: required, tone: optional). */
async function greeter(
  schema: Parameters<RondoServer['prompt']>[1]['arguments'],
): Promise<RondoServer> {
  const server = createServer({ name: 'prompts', version: '1.0.0', ...quiet }).prompt(
    'greet',
    { description: 'Greets someone', arguments: schema },
    (args) => {
      const { who, tone } = args as { who: string; tone?: string };
      return messages([message('user', `Hello ${who}, ${tone ?? 'plainly'}`)]);
    },
  );
  await runtimeOf(server).ready();
  return server;
}

describe.each([
  {
    library: 'zod 4',
    schema: z.object({
      who: z.string().min(2).describe('Who to greet'),
      tone: z.string().optional(),
    }),
  },
  {
    library: 'Valibot (toStandardJsonSchema)',
    schema: toStandardJsonSchema(
      v.object({
        who: v.pipe(v.string(), v.minLength(2), v.description('Who to greet')),
        tone: v.optional(v.string()),
      }),
    ),
  },
  {
    library: 'ArkType',
    schema: type({ who: type('string >= 2').describe('Who to greet'), 'tone?': 'string' }),
  },
])('issue 29: prompt arguments from $library', ({ schema }) => {
  it('lists the arguments derived from the schema: name, description, required', async () => {
    const server = await greeter(schema);
    const [who, tone] = runtimeOf(server).catalog.prompts[0]!.definition.arguments ?? [];
    expect(who).toMatchObject({ name: 'who', required: true });
    expect(who?.description).toBe('Who to greet');
    expect(tone).toEqual({ name: 'tone' });
  });

  it('passes valid arguments to the handler', async () => {
    const server = await greeter(schema);
    expect(await runtimeOf(server).getPrompt('greet', { who: 'Ada', tone: 'warmly' }, ctx)).toEqual(
      complete(messages([message('user', 'Hello Ada, warmly')])),
    );
  });

  it('answers arguments the schema refuses with -32602 naming the prompt and the field', async () => {
    const server = await greeter(schema);
    const refused = await runtimeOf(server)
      .getPrompt('greet', { who: 'A' }, ctx)
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: -32602 });
    expect((refused as Error).message).toMatch(/^Invalid arguments for prompt "greet": who: \S/);
  });

  it('answers a missing required argument with -32602 naming it', async () => {
    const server = await greeter(schema);
    await expect(runtimeOf(server).getPrompt('greet', { tone: 'x' }, ctx)).rejects.toMatchObject({
      code: -32602,
      message: 'Missing required argument "who" for prompt "greet"',
    });
  });
});

describe('issue 29: prompt argument schemas refused at registration', () => {
  const register = (schema: Parameters<RondoServer['prompt']>[1]['arguments']) => {
    try {
      createServer({ name: 'p', version: '1', ...quiet }).prompt('bad', { arguments: schema }, () =>
        messages([]),
      );
    } catch (failure) {
      return failure as Error;
    }
    return undefined;
  };

  it('refuses a schema that is not an object schema', () => {
    const failure = register(z.string());
    expect(failure).toBeInstanceOf(PromptDefinitionError);
    expect(failure?.message).toBe(
      'prompt "bad": its arguments schema must be an object schema (type "object") but has type "string" (with zod: z.object({...}))',
    );
  });

  it.each([
    ['zod', z.object({ count: z.number() })],
    ['Valibot', toStandardJsonSchema(v.object({ count: v.number() }))],
    ['ArkType', type({ count: 'number' })],
  ])('refuses a %s field that is not a string, naming it', (_library, schema) => {
    const failure = register(schema);
    expect(failure).toBeInstanceOf(PromptDefinitionError);
    expect((failure as PromptDefinitionError).argument).toBe('count');
    expect(failure?.message).toBe(
      'prompt "bad": argument "count" must be a string schema (prompt arguments are strings on the wire) but is {"type":"number"}',
    );
  });

  it('accepts string enums and unions of strings', async () => {
    const server = createServer({ name: 'p', version: '1', ...quiet })
      .prompt('size', { arguments: z.object({ size: z.enum(['s', 'm']) }) }, ({ size }) =>
        messages([message('user', size)]),
      )
      .prompt('kind', { arguments: type({ kind: "'a' | 'b'" }) }, ({ kind }) =>
        messages([message('user', kind)]),
      );
    await runtimeOf(server).ready();
    expect(await runtimeOf(server).getPrompt('size', { size: 'm' }, ctx)).toEqual(
      complete(messages([message('user', 'm')])),
    );
    expect(await runtimeOf(server).getPrompt('kind', { kind: 'b' }, ctx)).toEqual(
      complete(messages([message('user', 'b')])),
    );
    await expect(runtimeOf(server).getPrompt('kind', { kind: 'c' }, ctx)).rejects.toMatchObject({
      code: -32602,
    });
  });

  it('refuses a Valibot schema without its JSON Schema converter, naming it', () => {
    expect(register(v.object({ who: v.string() }))?.message).toMatch(
      /^prompt "bad": the valibot schema exports no JSON Schema.*toStandardJsonSchema/,
    );
  });
});

describe('issue 29: typed prompt arguments from a schema', () => {
  it('types the handler arguments as the schema output', async () => {
    const server = createServer({ name: 'p', version: '1', ...quiet })
      .prompt(
        'zod',
        { arguments: z.object({ who: z.string(), tone: z.string().default('warm') }) },
        (args) => {
          expectTypeOf(args).toEqualTypeOf<{ who: string; tone: string }>();
          return messages([message('user', `${args.who} ${args.tone}`)]);
        },
      )
      .prompt('ark', { arguments: type({ who: 'string', 'tone?': 'string' }) }, (args) => {
        expectTypeOf(args.who).toEqualTypeOf<string>();
        expectTypeOf(args.tone).toEqualTypeOf<string | undefined>();
        return messages([]);
      })
      .prompt(
        'valibot',
        { arguments: toStandardJsonSchema(v.object({ who: v.string() })) },
        (args) => {
          expectTypeOf(args).toEqualTypeOf<{ who: string }>();
          return messages([]);
        },
      );
    await runtimeOf(server).ready();
    // zod's default reaches the handler: the parsed value, not the raw arguments.
    expect(await runtimeOf(server).getPrompt('zod', { who: 'Ada' }, ctx)).toEqual(
      complete(messages([message('user', 'Ada warm')])),
    );
  });
});
