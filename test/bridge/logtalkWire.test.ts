import {
  Client as ModernClient,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { tapTransport, type WireTap } from '../stdio/support/clientTap.js';
import { textOf } from '../stdio/support/wire.js';
import { hostStdioParams, peregrineAnswer, PEREGRINE } from './support/birds.js';
import { startHostProcess, type HostProcess } from './support/hostProcess.js';
import { tapHttp, type HttpTap } from './support/httpTap.js';
import { BIRDS_LGT, bridgeFixture, logtalkHomeForTests } from './support/paths.js';
import { validatorFor } from './support/wireClient.js';

// Issue 7, done-when 4: with LOGTALKHOME set, Logtalk objects (the .lgt bird expert, and an
// object implementing the mcp_* protocols without Logtalk's mcp_server library) are served by
// rondo-logtalk over stdio and HTTP, on LOGTALKHOME or ../shared/logtalk (issue 17: never skipped).

logtalkHomeForTests();
const TOOLS_LGT = bridgeFixture('tools.lgt');

const stdioRuns: { client: Client; tap: WireTap }[] = [];
const httpRuns: { client: ModernClient; tap: HttpTap; server: HostProcess }[] = [];

afterEach(async () => {
  for (const { client, tap } of stdioRuns.splice(0)) {
    await client.close();
    expect(validatorFor('2025-11-25')?.problems(tap.received, tap.sent) ?? []).toEqual([]);
  }
  for (const { client, tap, server } of httpRuns.splice(0)) {
    await client.close();
    await server.stop();
    expect(validatorFor('2026-07-28')?.problems(await tap.received(), tap.sent) ?? []).toEqual([]);
  }
});

async function overStdio(file: string): Promise<Client> {
  const client = new Client(
    { name: 'bridge-logtalk-stdio', version: '1.0.0' },
    { capabilities: { elicitation: {} } },
  );
  const transport = new StdioClientTransport(hostStdioParams([file]));
  const tap = tapTransport(transport);
  await client.connect(transport);
  stdioRuns.push({ client, tap });
  return client;
}

async function overHttp(file: string): Promise<ModernClient> {
  const server = await startHostProcess('http', [file]);
  const tap = tapHttp();
  const client = new ModernClient(
    { name: 'bridge-logtalk-http', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), { fetch: tap.fetch }),
  );
  httpRuns.push({ client, tap, server });
  return client;
}

describe('Logtalk objects served by rondo-logtalk', { timeout: scaled(60_000) }, () => {
  it('serves the .lgt bird expert over stdio: tool_call/4 elicitation with the v1 client', async () => {
    const client = await overStdio(BIRDS_LGT);
    client.setRequestHandler(ElicitRequestSchema, async (request) =>
      peregrineAnswer(request.params),
    );
    const result = await client.callTool({ name: 'identify_bird', arguments: {} });
    expect(result.structuredContent).toEqual({ message: PEREGRINE });
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
  });

  it('serves the .lgt bird expert over HTTP: round hooks with the v2 client', async () => {
    const client = await overHttp(BIRDS_LGT);
    client.setRequestHandler('elicitation/create', async (request) =>
      peregrineAnswer(request.params),
    );
    const result = await client.callTool({ name: 'identify_bird', arguments: {} });
    expect(result.structuredContent).toEqual({ message: PEREGRINE });
  });

  it('serves an object implementing the protocols over stdio: auto-dispatch, prompts, tool_call/4', async () => {
    const client = await overStdio(TOOLS_LGT);
    expect(client.getServerVersion()?.title).toBe('logtalk:lgt_tools (rondo-logtalk)');
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'greet')).toMatchObject({
      title: 'Greeter',
      description: 'Greets.',
      inputSchema: { properties: { Name: { type: 'string' } }, required: ['Name'] },
      outputSchema: { properties: { Greeting: { type: 'string' } }, required: ['Greeting'] },
    });
    const sum = await client.callTool({ name: 'add', arguments: { A: 20, B: 22 } });
    expect(sum.structuredContent).toEqual({ Sum: 42 });
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: 'accept',
      content: { name: 'Ann' },
    }));
    expect(textOf(await client.callTool({ name: 'ask', arguments: {} }))).toBe('Hi Ann');
    const prompt = await client.getPrompt({ name: 'hello', arguments: { who: 'Bo' } });
    expect(prompt.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Hello Bo' } },
    ]);
  });

  it('serves an object implementing the protocols over HTTP: round hook with state and progress', async () => {
    const client = await overHttp(TOOLS_LGT);
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: {} }));
    const progress: number[] = [];
    const result = await client.callTool(
      { name: 'steps', arguments: {} },
      { onprogress: (update) => progress.push(update.progress) },
    );
    expect(result.structuredContent).toEqual({ answer: 'ok' });
    // One progress notification on the wire (the client may report it again for the retry).
    expect(progress[0]).toBe(1);
    const received = await httpRuns[0]!.tap.received();
    expect(received.filter((m) => m.method === 'notifications/progress')).toHaveLength(1);
    const read = await client.readResource({ uri: 'lgt://a' });
    expect(read.contents).toEqual([{ uri: 'lgt://a', mimeType: 'text/plain', text: 'alpha' }]);
  });
});
