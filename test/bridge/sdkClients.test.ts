import {
  Client as ModernClient,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { serveHttp, type HttpServerHandle } from '@rondo/transport-http';
import { afterEach, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { tapTransport, type WireTap } from '../stdio/support/clientTap.js';
import { textOf } from '../stdio/support/wire.js';
import { hostStdioParams, peregrineAnswer, PEREGRINE } from './support/birds.js';
import { tapHttp, type HttpTap } from './support/httpTap.js';
import { BIRDS_PL, PROLOG_FIXTURE } from './support/paths.js';
import { hostProlog, type HostedProlog } from './support/prologHost.js';
import { validatorFor } from './support/wireClient.js';

// Issue 7, done-when 2: the official clients against Prolog providers. tool_call/4 elicitation
// with the v1 SDK (stdio, through the rondo-logtalk CLI); round hooks with the v2 client (modern
// wire over HTTP). Progress, logging and a single round in every era and transport are the contract
// table's (test/contract).

const legacyClients: { client: Client; tap: WireTap }[] = [];
const modernRuns: {
  client: ModernClient;
  tap: HttpTap;
  http: HttpServerHandle;
  host: HostedProlog;
}[] = [];

afterEach(async () => {
  for (const { client, tap } of legacyClients.splice(0)) {
    await client.close();
    expect(validatorFor('2025-11-25')?.problems(tap.received, tap.sent) ?? []).toEqual([]);
  }
  for (const { client, tap, http, host } of modernRuns.splice(0)) {
    await client.close();
    await http.close();
    await host.close();
    expect(validatorFor('2026-07-28')?.problems(await tap.received(), tap.sent) ?? []).toEqual([]);
  }
});

async function legacyOverStdio(file: string): Promise<{ client: Client; tap: WireTap }> {
  const client = new Client(
    { name: 'bridge-sdk-v1-test', version: '1.0.0' },
    { capabilities: { elicitation: {}, sampling: {} } },
  );
  const transport = new StdioClientTransport(hostStdioParams([file]));
  const tap = tapTransport(transport);
  await client.connect(transport);
  legacyClients.push({ client, tap });
  return { client, tap };
}

async function modernOverHttp(file: string): Promise<{ client: ModernClient; tap: HttpTap }> {
  const host = await hostProlog([file], { workers: 1 });
  const http = await serveHttp(host.endpoint, { port: 0 });
  const tap = tapHttp();
  const client = new ModernClient(
    { name: 'bridge-client-v2-test', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { fetch: tap.fetch }));
  modernRuns.push({ client, tap, http, host });
  return { client, tap };
}

describe('the v1 SDK client over stdio (rondo-logtalk CLI)', { timeout: scaled(30_000) }, () => {
  it('answers tool_call/4 elicitations while the Prolog call waits (birds.pl)', async () => {
    const { client } = await legacyOverStdio(BIRDS_PL);
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return peregrineAnswer(request.params);
    });
    const result = await client.callTool({ name: 'identify_bird', arguments: {} });
    expect(asked).toEqual(['What is its size?', 'bill: hooked?', 'flight: fast_dives?']);
    expect(result.structuredContent).toEqual({ message: PEREGRINE });
    expect(textOf(result)).toBe(PEREGRINE);
  });

  it('samples with mcp_sample/2 and logs with mcp_log/2 (the Prolog fixture)', async () => {
    const { client } = await legacyOverStdio(PROLOG_FIXTURE);
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => ({
      role: 'assistant',
      model: 'test-model',
      stopReason: 'endTurn',
      content: {
        type: 'text',
        text: `echo: ${JSON.stringify(request.params.messages[0]?.content)}`,
      },
    }));
    const sampled = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'Hi?' } });
    expect(textOf(sampled)).toBe('LLM response: echo: {"type":"text","text":"Hi?"}');
    const logged: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logged.push(n.params.data);
    });
    await client.setLoggingLevel('info');
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(logged).toEqual([
      'Tool execution started',
      'Tool processing data',
      'Tool execution completed',
    ]);
  });
});

describe('the v2 client on the modern wire over HTTP', { timeout: scaled(30_000) }, () => {
  it('fulfils the round hook tool_call_round/4 until the bird is named (birds.pl)', async () => {
    const { client, tap } = await modernOverHttp(BIRDS_PL);
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.message);
      return peregrineAnswer(request.params);
    });
    const result = await client.callTool({ name: 'identify_bird', arguments: {} });
    expect(asked).toEqual(['What is its size?', 'bill: hooked?', 'flight: fast_dives?']);
    expect(result.structuredContent).toEqual({ message: PEREGRINE });
    // Four rounds: three input_required results, then the answer; no request on any stream.
    const calls = tap.sent.filter((m) => m.method === 'tools/call');
    expect(calls).toHaveLength(4);
    expect((await tap.received()).filter((m) => m.method && m.id !== undefined)).toEqual([]);
  });

  it('answers several input requests and state over rounds (the Prolog fixture)', async () => {
    const { client } = await modernOverHttp(PROLOG_FIXTURE);
    client.setRequestHandler('elicitation/create', async (request) => {
      const content: Record<string, string> = request.params.message.includes('color')
        ? { color: 'blue' }
        : { name: 'Alice' };
      return { action: 'accept', content };
    });
    client.setRequestHandler('sampling/createMessage', async () => ({
      role: 'assistant',
      model: 'test-model',
      content: { type: 'text', text: 'Hello there!' },
    }));
    client.setRequestHandler('roots/list', async () => ({
      roots: [{ uri: 'file:///test/root', name: 'Test Root' }],
    }));
    const multi = await client.callTool({
      name: 'test_input_required_result_multiple_inputs',
      arguments: {},
    });
    expect(multi.content).toEqual([
      { type: 'text', text: 'Name: Alice; greeting: Hello there!; roots: 1' },
    ]);
    const rounds = await client.callTool({
      name: 'test_input_required_result_multi_round',
      arguments: {},
    });
    expect(rounds.content).toEqual([
      { type: 'text', text: 'Hello, Alice! Your favorite color is blue.' },
    ]);
  });
});
