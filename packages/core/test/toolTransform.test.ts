import { runtimeOf } from '@rondo/core/internal';
import { describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { structured, text, type JsonObject } from '@rondo/protocol';
import { z } from 'zod';
import {
  ToolTransformError,
  checkToolTransform,
  createServer,
  deriveTool,
  type RondoServer,
  type ToolTransform,
} from '@rondo/core';
import { testContext } from './testContext.js';

// Issue 45, tool transformation: a tool derived from another (renamed, arguments renamed, hidden
// with a fixed value, defaulted, narrowed, output reshaped) reaches the original with the right
// values, on a local tool and on a mounted one; a transform that does not fit stops the server.

const quiet = { log: () => undefined };
const ctx = testContext();

const SEND_SCHEMA: JsonObject = {
  type: 'object',
  properties: {
    to: { type: 'string' },
    subject: { type: 'string' },
    priority: { type: 'string', enum: ['low', 'normal', 'high'] },
    copies: { type: 'integer', minimum: 1, maximum: 10 },
  },
  required: ['to', 'subject', 'priority'],
};

const NOTIFY: ToolTransform = {
  name: 'notify',
  description: 'Notify someone',
  arguments: {
    to: { name: 'recipient', description: 'Who is told' },
    priority: { hidden: true, value: 'high' },
    subject: { default: 'Notice' },
    copies: { schema: { type: 'integer', minimum: 1, maximum: 3 } },
  },
  output: { pick: ['id'] },
};

/** A mail server whose `send` answers with the arguments it got, as structured content. */
function mail(options: { catalog?: { tools: Record<string, ToolTransform> } } = {}): RondoServer {
  return createServer({ name: 'mail', version: '1.0.0', ...quiet, ...options }).tool(
    'send',
    {
      description: 'Send a mail',
      input: SEND_SCHEMA,
      output: {
        type: 'object',
        properties: { id: { type: 'string' }, got: { type: 'object' } },
        required: ['id', 'got'],
      },
    },
    (args) => structured({ id: 'm1', got: args as JsonObject }),
  );
}

async function call(server: RondoServer, name: string, args: JsonObject) {
  const runtime = runtimeOf(server);
  await runtime.ready();
  return runtime.callTool(name, args, ctx);
}

describe('tool transformation: a local tool', () => {
  it('renames the tool and its arguments, fixes the hidden one, fills the default, reshapes the output', async () => {
    const server = mail({ catalog: { tools: { send: NOTIFY } } });
    await runtimeOf(server).ready();
    const listed = runtimeOf(server).catalog.tools.map((e) => e.definition);
    expect(listed.map((d) => d.name)).toEqual(['notify']);
    const schema = listed[0]!.inputSchema as { properties: JsonObject; required: string[] };
    expect(Object.keys(schema.properties).sort()).toEqual(['copies', 'recipient', 'subject']);
    expect(schema.required).toEqual(['recipient']);
    expect(listed[0]!.outputSchema).toMatchObject({
      properties: { id: { type: 'string' } },
      required: ['id'],
    });
    // The server checks the original's answer, then the derived tool reshapes it: the original's
    // own arguments are seen through a second tool that keeps the original.
    const both = mail({
      catalog: { tools: { send: { ...NOTIFY, output: undefined, keepOriginal: true } } },
    });
    const result = await call(both, 'notify', { recipient: 'ann@example.org', copies: 2 });
    expect(result).toEqual({
      kind: 'complete',
      result: {
        kind: 'structured',
        structured: {
          id: 'm1',
          got: { to: 'ann@example.org', subject: 'Notice', priority: 'high', copies: 2 },
        },
      },
    });
    expect(runtimeOf(both).catalog.tools.map((e) => e.definition.name)).toEqual(['send', 'notify']);
    const picked = await call(server, 'notify', { recipient: 'bob@example.org' });
    expect(picked).toMatchObject({ result: { kind: 'structured', structured: { id: 'm1' } } });
    expect((picked as { result: { structured: JsonObject } }).result.structured).not.toHaveProperty(
      'got',
    );
  });

  it(
    'refuses arguments outside the narrowed schema and a hidden argument given by the caller',
    async () => {
      const server = mail({ catalog: { tools: { send: NOTIFY } } });
      const narrowed = await call(server, 'notify', { recipient: 'a@b.c', copies: 5 });
      expect(narrowed).toMatchObject({ result: { kind: 'error' } });
      expect(JSON.stringify(narrowed)).toContain('copies');
      // A caller's value for the hidden argument never reaches the original: the fixed value wins.
      const whole = mail({ catalog: { tools: { send: { ...NOTIFY, output: undefined } } } });
      const forced = await call(whole, 'notify', { recipient: 'a@b.c', priority: 'low' });
      expect(forced).toMatchObject({ result: { structured: { got: { priority: 'high' } } } });
      // The original is no longer offered.
      await expect(call(whole, 'send', { to: 'a', subject: 's', priority: 'low' })).rejects.toThrow(
        'Unknown tool: send',
      );
    },
    scaled(10_000),
  );

  it('gives a zod tool the values its own schema parsed', async () => {
    const server = createServer({
      name: 'zod',
      version: '1.0.0',
      ...quiet,
      catalog: {
        tools: { add: { arguments: { a: { name: 'left' }, b: { hidden: true, value: 40 } } } },
      },
    }).tool('add', { input: z.object({ a: z.number(), b: z.number() }) }, ({ a, b }) =>
      text(String(a + b)),
    );
    expect(await call(server, 'add', { left: 2 })).toEqual({
      kind: 'complete',
      result: { kind: 'text', text: '42' },
    });
  });
});

describe('tool transformation: a mounted tool', () => {
  it('derives a tool from a mounted one by the name the host offers it under', async () => {
    const host = createServer({
      name: 'host',
      version: '1.0.0',
      ...quiet,
      catalog: { tools: { mail_send: { ...NOTIFY, name: 'mail_notify', output: undefined } } },
    }).mount(mail(), { namespace: 'mail' });
    const result = await call(host, 'mail_notify', { recipient: 'cy@example.org', subject: 'Hi' });
    expect(result).toMatchObject({
      result: { structured: { got: { to: 'cy@example.org', subject: 'Hi', priority: 'high' } } },
    });
    expect(runtimeOf(host).catalog.tools.map((e) => e.definition.name)).toEqual(['mail_notify']);
  });
});

describe('tool transformation: refused at load', () => {
  it('refuses a hidden value outside the original schema, naming the tool and the argument', async () => {
    const server = mail({
      catalog: { tools: { send: { arguments: { priority: { hidden: true, value: 'urgent' } } } } },
    });
    const failure = await runtimeOf(server)
      .ready()
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ToolTransformError);
    expect((failure as Error).message).toMatch(
      /tool transform of "send": argument "priority": value "urgent" does not match/,
    );
  });

  it('refuses an argument the tool does not have, a name taken twice and a bad narrowed schema', () => {
    const original = { name: 'send', inputSchema: SEND_SCHEMA };
    expect(() => deriveTool(original, { arguments: { cc: { name: 'x' } } })).toThrow(
      'tool transform of "send": argument "cc": the tool has none',
    );
    expect(() => deriveTool(original, { arguments: { to: { name: 'subject' } } })).toThrow(
      /argument "(to|subject)": the name "subject" is taken/,
    );
    expect(() =>
      checkToolTransform('send', { arguments: { to: { schema: { type: 'strin' } } } }),
    ).toThrow(/tool transform of "send": argument "to": invalid JSON Schema/);
    expect(() => checkToolTransform('send', { arguments: { to: { hidden: true } } })).toThrow(
      'tool transform of "send": argument "to" is hidden but has no value',
    );
    expect(() => checkToolTransform('send', { name: 'no spaces' })).toThrow(/name "no spaces"/);
    expect(() => deriveTool(original, { arguments: { copies: { default: 20 } } })).toThrow(
      /argument "copies": default 20 does not match/,
    );
  });

  it('refuses at creation a transform that is wrong whatever the tool', () => {
    expect(() =>
      createServer({
        name: 's',
        version: '1',
        catalog: { tools: { t: { arguments: { a: { value: 1 } } } } },
      }),
    ).toThrow('tool transform of "t": argument "a" has a value but is not hidden');
  });
});
