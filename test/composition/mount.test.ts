import { Client as ModernClient } from '@modelcontextprotocol/client';
import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ElicitRequestSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { text } from '@rondo/protocol';
import type { HttpServerHandle } from '@rondo/transport-http';
import {
  OFFICIAL_ERAS,
  connectOfficial,
  serveBothEras,
  type OfficialClient,
  type OfficialEra,
} from '../support/officialClients.js';
import { mountedPair, type MountedPair } from './mountServers.js';

// Issue 26, Mount: a Rondo server mounted into another, served over Streamable HTTP to the
// official clients of both eras (SDK v1 on 2025-11-25, SDK v2 pinned to 2026-07-28).

/** Answers the server's form elicitations with `content`, whichever official client it is. */
function answerForms(client: OfficialClient, content: Record<string, unknown>): string[] {
  const asked: string[] = [];
  if (client instanceof ModernClient) {
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: content as Record<string, string> };
    });
  } else {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: content as Record<string, string> };
    });
  }
  return asked;
}

/** Resolves once `count` notifications of `method` arrived (list changes, resource updates). */
async function heard(
  era: OfficialEra,
  client: OfficialClient,
  uri: string,
  act: () => void,
): Promise<{ listChanged: number; updated: string[] }> {
  const seen = { listChanged: 0, updated: [] as string[] };
  let stop = async () => undefined as unknown;
  if (client instanceof ModernClient) {
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      seen.listChanged += 1;
    });
    client.setNotificationHandler('notifications/resources/updated', (n) => {
      seen.updated.push(n.params.uri);
    });
    const subscription = await client.listen({
      toolsListChanged: true,
      resourceSubscriptions: [uri],
    });
    stop = () => subscription.close();
  } else {
    const legacy: LegacyClient = client;
    legacy.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      seen.listChanged += 1;
    });
    legacy.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      seen.updated.push(n.params.uri);
    });
    await legacy.subscribeResource({ uri });
  }
  act();
  for (let i = 0; i < 200 && (seen.listChanged < 1 || seen.updated.length < 1); i += 1)
    await new Promise((resolve) => setTimeout(resolve, 10));
  await stop();
  expect(seen, `${era}: what the client heard`).toEqual({ listChanged: 1, updated: [uri] });
  return seen;
}

describe.each(OFFICIAL_ERAS)('a mounted server, %s client over HTTP', (era) => {
  let pair: MountedPair;
  let handle: HttpServerHandle;
  let client: OfficialClient;
  beforeAll(async () => {
    pair = mountedPair();
    handle = await serveBothEras(pair.main);
    client = await connectOfficial(era, handle.url);
  });
  afterAll(async () => {
    await client.close();
    await handle.close();
  });

  it('lists the mounted tools and prompts prefixed, and the URIs prefixed by scheme', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      'hello',
      'weather_get',
      'weather_confirm',
      'weather_forecast',
      'weather_plan',
    ]);
    expect(tools[1]).toMatchObject({
      description: 'The weather in a city',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
    });
    const { prompts } = await client.listPrompts();
    expect(prompts).toEqual([
      {
        name: 'weather_ask',
        arguments: [{ name: 'city', description: 'The city', required: true }],
      },
    ]);
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(['weather+file:///today.txt']);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['weather+file:///days/{day}']);
  });

  it('calls a mounted tool through the outer middleware, then the mounted server’s', async () => {
    pair.seen.length = 0;
    const result = await client.callTool({ name: 'weather_get', arguments: { city: 'Oslo' } });
    expect(result.content).toEqual([{ type: 'text', text: 'Sunny in Oslo' }]);
    expect(pair.seen).toEqual(['outer tools/call weather_get', 'inner tools/call get']);
    const bad = await client.callTool({ name: 'weather_get', arguments: { city: 3 } });
    expect(bad).toMatchObject({ isError: true });
  });

  it('asks the client for input in a mounted round hook, every round through both chains', async () => {
    const asked = answerForms(client, { ok: true });
    pair.seen.length = 0;
    const result = await client.callTool({ name: 'weather_confirm', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'confirmed: true in round 2' }]);
    expect(asked).toEqual(['Really?']);
    const onePerRound = ['outer tools/call weather_confirm', 'inner tools/call confirm'];
    expect(pair.seen).toEqual([...onePerRound, ...onePerRound]);
  });

  it('gets a mounted prompt and completes its argument through the mounted server', async () => {
    const prompt = await client.getPrompt({ name: 'weather_ask', arguments: { city: 'Oslo' } });
    expect(prompt.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'What is the weather in Oslo?' } },
    ]);
    pair.seen.length = 0;
    const { completion } = await client.complete({
      ref: { type: 'ref/prompt', name: 'weather_ask' },
      argument: { name: 'city', value: 'B' },
    });
    expect(completion.values).toEqual(['Bergen', 'Bodø']);
    expect(pair.seen).toEqual([
      'outer completion/complete weather_ask',
      'inner completion/complete ask',
    ]);
  });

  it('reads mounted resources under their prefixed URIs', async () => {
    const today = await client.readResource({ uri: 'weather+file:///today.txt' });
    expect(today.contents).toEqual([
      { uri: 'weather+file:///today.txt', mimeType: 'text/plain', text: 'rain' },
    ]);
    const day = await client.readResource({ uri: 'weather+file:///days/3' });
    expect(day.contents[0]).toMatchObject({ uri: 'weather+file:///days/3', text: 'day 3' });
    const missing = await client.readResource({ uri: 'file:///today.txt' }).catch((e) => e);
    expect(missing).toMatchObject({ code: expect.any(Number) });
  });

  it('tells the client when the mounted server’s tools change or a resource is updated', async () => {
    const uri = 'weather+file:///today.txt';
    await heard(era, client, uri, () => {
      pair.weather.tool(`wind_${era.startsWith('legacy') ? 'a' : 'b'}`, {}, () => text('calm'));
      pair.weather.resourceUpdated('file:///today.txt');
    });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain(
      `weather_wind_${era.startsWith('legacy') ? 'a' : 'b'}`,
    );
  });
});
