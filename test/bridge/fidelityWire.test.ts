import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { tapTransport, type WireTap } from '../stdio/support/clientTap.js';
import { hostStdioParams } from './support/birds.js';
import { bridgeFixture, logtalkHomeForTests } from './support/paths.js';
import { validatorFor } from './support/wireClient.js';

// Issue 17: what Logtalk's mcp_server library does for a 2025-11-25 client (its
// tests_2025_11_25 with the test_tools_2025_11_25 application), observed on the wire of
// rondo-logtalk with the official client: icons, the server description, completions and
// their validation.

logtalkHomeForTests();
const CATALOG = bridgeFixture('catalog.lgt');
const runs: { client: Client; tap: WireTap }[] = [];

afterEach(async () => {
  for (const { client, tap } of runs.splice(0)) {
    await client.close();
    expect(validatorFor('2025-11-25')?.problems(tap.received, tap.sent) ?? []).toEqual([]);
  }
});

async function connect(file: string, extraArgs: string[] = []): Promise<Client> {
  const client = new Client({ name: 'bridge-fidelity', version: '1.0.0' });
  const transport = new StdioClientTransport(hostStdioParams([file], extraArgs));
  const tap = tapTransport(transport);
  await client.connect(transport);
  runs.push({ client, tap });
  return client;
}

const icon = (name: string) => ({
  src: `https://example.com/icons/${name}`,
  mimeType: 'image/png',
});

describe('the 2025-11-25 features of the mcp_server library', { timeout: scaled(60_000) }, () => {
  it('lists icons on tools, prompts, resources and templates, and the server description', async () => {
    const client = await connect(CATALOG, ['--description', 'A test server']);
    expect(client.getServerVersion()?.description).toBe('A test server');
    const [tool] = (await client.listTools()).tools;
    expect(tool).toMatchObject({
      name: 'echo',
      icons: [{ ...icon('echo.png'), sizes: ['48x48'] }],
    });
    const [prompt] = (await client.listPrompts()).prompts;
    expect(prompt).toMatchObject({
      name: 'city_prompt',
      icons: [{ ...icon('prompt.png'), sizes: ['48x48'] }],
    });
    const [resource] = (await client.listResources()).resources;
    expect(resource).toMatchObject({
      uri: 'logtalk://test/palette',
      icons: [icon('resource.png')],
    });
    const [template] = (await client.listResourceTemplates()).resourceTemplates;
    expect(template).toMatchObject({
      uriTemplate: 'logtalk://test/palettes/{name}',
      title: 'Named Palette',
      icons: [icon('template.png')],
    });
  });

  it('completes a prompt argument with the context, as completion/4 answers', async () => {
    const client = await connect(CATALOG);
    expect(client.getServerCapabilities()?.completions).toEqual({});
    const answer = await client.complete({
      ref: { type: 'ref/prompt', name: 'city_prompt' },
      argument: { name: 'city', value: 'L' },
      context: { arguments: { country: 'PT' } },
    });
    expect(answer.completion.values).toEqual(['Lisbon']);
  });

  it('cuts a list to 100 values with hasMore: true, even when the provider said false', async () => {
    const client = await connect(CATALOG);
    const answer = await client.complete({
      ref: { type: 'ref/resource', uri: 'logtalk://test/palettes/{name}' },
      argument: { name: 'name', value: '' },
    });
    expect(answer.completion.values).toHaveLength(100);
    expect(answer.completion).toMatchObject({ total: 150, hasMore: true });
  });

  it('answers -32602 for an unknown prompt, template, argument or reference', async () => {
    const client = await connect(CATALOG);
    const ask = (
      ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
      name: string,
    ) => client.complete({ ref, argument: { name, value: '' } });
    for (const [ref, name, message] of [
      [{ type: 'ref/prompt', name: 'nope' }, 'city', 'Unknown prompt: nope'],
      [{ type: 'ref/prompt', name: 'city_prompt' }, 'planet', 'Unknown argument "planet"'],
      [{ type: 'ref/resource', uri: 'logtalk://none/{x}' }, 'x', 'Unknown resource template'],
      [
        { type: 'ref/resource', uri: 'logtalk://test/palettes/{name}' },
        'size',
        'Unknown argument "size"',
      ],
    ] as const)
      await expect(ask(ref, name)).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining(message),
      });
  });

  it('offers no completions capability and answers -32601 when the object defines no completion/4', async () => {
    const client = await connect(bridgeFixture('tools.lgt'));
    expect(client.getServerCapabilities()?.completions).toBeUndefined();
    await expect(
      client.complete({
        ref: { type: 'ref/prompt', name: 'hello' },
        argument: { name: 'who', value: '' },
      }),
    ).rejects.toMatchObject({ code: -32601 });
  });
});
