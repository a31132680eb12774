import { type } from 'arktype';
import * as v from 'valibot';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer } from '@rondo/core';
import { message, messages } from '@rondo/protocol';
import type { HttpServerHandle } from '@rondo/transport-http';
import {
  OFFICIAL_ERAS,
  connectOfficial,
  serveBothEras,
  type OfficialClient,
} from '../support/officialClients.js';

// Issue 29: prompts whose arguments are a zod, Valibot or ArkType schema, reached by the official
// clients of both eras over Streamable HTTP: the listed arguments come from the schema, and
// arguments the schema refuses are -32602 naming the field.

function promptServer() {
  const reply = (args: { city: string; units?: string | undefined }) =>
    messages([message('user', `Weather in ${args.city} (${args.units ?? 'metric'})`)]);
  return createServer({ name: 'prompt-schemas', version: '1.0.0', log: () => undefined })
    .prompt(
      'zod_weather',
      {
        arguments: z.object({
          city: z.string().min(2).describe('The city'),
          units: z.enum(['metric', 'imperial']).optional(),
        }),
      },
      reply,
    )
    .prompt(
      'valibot_weather',
      {
        arguments: toStandardJsonSchema(
          v.object({
            city: v.pipe(v.string(), v.minLength(2), v.description('The city')),
            units: v.optional(v.picklist(['metric', 'imperial'])),
          }),
        ),
      },
      reply,
    )
    .prompt(
      'arktype_weather',
      {
        arguments: type({
          city: type('string >= 2').describe('The city'),
          'units?': "'metric' | 'imperial'",
        }),
      },
      reply,
    );
}

describe.each(OFFICIAL_ERAS)('prompt argument schemas, %s client over HTTP', (era) => {
  let handle: HttpServerHandle;
  let client: OfficialClient;
  beforeAll(async () => {
    handle = await serveBothEras(promptServer());
    client = await connectOfficial(era, handle.url);
  });
  afterAll(async () => {
    await client.close();
    await handle.close();
  });

  it('lists each prompt with the arguments its schema declares', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts).toHaveLength(3);
    for (const prompt of prompts) {
      expect(prompt.arguments).toEqual([
        { name: 'city', description: 'The city', required: true },
        { name: 'units' },
      ]);
    }
  });

  for (const library of ['zod', 'valibot', 'arktype']) {
    it(`${library}: gets the prompt with valid arguments`, async () => {
      const result = await client.getPrompt({
        name: `${library}_weather`,
        arguments: { city: 'Oslo', units: 'imperial' },
      });
      expect(result.messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'Weather in Oslo (imperial)' } },
      ]);
    });

    it(`${library}: answers arguments the schema refuses with -32602 naming the field`, async () => {
      const failure = await client
        .getPrompt({ name: `${library}_weather`, arguments: { city: 'Oslo', units: 'kelvin' } })
        .catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: -32602 });
      expect((failure as Error).message).toContain(
        `Invalid arguments for prompt "${library}_weather": units: `,
      );
    });
  }
});
