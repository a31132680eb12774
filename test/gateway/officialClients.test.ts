import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import {
  EVERYTHING_MAIN,
  FIXTURE_MAIN,
  recordingFetch,
  startGateway,
  writeConfig,
  type RunningGateway,
} from './support.js';

// Issue 26, done-when 1: rondo-gateway in front of the official everything server (stdio, legacy
// era only) and of a Rondo server with round hooks, called by the official clients over HTTP.

let gateway: RunningGateway;
beforeAll(async () => {
  const config = writeConfig({
    everything: { command: process.execPath, args: [EVERYTHING_MAIN, 'stdio'] },
    rondo: {
      command: process.execPath,
      args: [FIXTURE_MAIN],
      env: { RONDO_STATE_KEY: 'rondo-gateway-upstream-state-key-0123456789' },
    },
  });
  gateway = await startGateway(config);
}, scaled(60_000));
afterAll(() => gateway.close());

function textOf(result: object): string {
  const [first] = ((result as { content?: unknown }).content ?? []) as {
    type: string;
    text?: string;
  }[];
  return first?.type === 'text' ? (first.text ?? '') : '';
}

async function modernClient(sent: Record<string, unknown>[]) {
  const asked: string[] = [];
  const client = new Client(
    { name: 'gateway-modern-test', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} }, sampling: {} },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(`elicitation: ${request.params.message}`);
    return { action: 'accept', content: { name: 'Ada Lovelace', check: true, integer: 7 } };
  });
  client.setRequestHandler('sampling/createMessage', async (request) => {
    asked.push(`sampling: ${JSON.stringify(request.params.messages[0]?.content)}`);
    return { role: 'assistant', model: 'test-model', content: { type: 'text', text: 'Stormy.' } };
  });
  await client.connect(
    new StreamableHTTPClientTransport(gateway.url, { fetch: recordingFetch(sent) }),
  );
  return { client, asked };
}

/** The retries the client sent: a call carrying the answers and the sealed state. */
function retries(sent: Record<string, unknown>[], tool: string) {
  return sent.filter((message) => {
    const params = message.params as Record<string, unknown> | undefined;
    return (
      message.method === 'tools/call' && params?.name === tool && params.requestState !== undefined
    );
  });
}

describe('rondo-gateway in front of server-everything, for the v2 client pinned to 2026-07-28', () => {
  it('lists the upstream tools under the namespace and calls one', async () => {
    const sent: Record<string, unknown>[] = [];
    const { client } = await modernClient(sent);
    expect(client.getProtocolEra()).toBe('modern');
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['everything_echo', 'rondo_test_simple_text']));
    const result = await client.callTool({ name: 'everything_echo', arguments: { message: 'hi' } });
    expect(textOf(result)).toBe('Echo: hi');
    await client.close();
  });

  it('turns the upstream elicitation/create into input_required and resumes the upstream call with the answer', async () => {
    const sent: Record<string, unknown>[] = [];
    const { client, asked } = await modernClient(sent);
    const result = await client.callTool({
      name: 'everything_trigger-elicitation-request',
      arguments: {},
    });
    expect(asked).toEqual(['elicitation: Please provide inputs for the following fields:']);
    const text = (result.content as { text?: string }[])
      .map((block) => block.text ?? '')
      .join('\n');
    expect(text).toContain('Ada Lovelace');
    const [retry] = retries(sent, 'everything_trigger-elicitation-request');
    expect(retry?.params).toMatchObject({
      inputResponses: expect.any(Object),
      requestState: expect.any(String),
    });
    await client.close();
  });

  it('turns the upstream sampling/createMessage into input_required and returns the upstream result', async () => {
    const sent: Record<string, unknown>[] = [];
    const { client, asked } = await modernClient(sent);
    const result = await client.callTool({
      name: 'everything_trigger-sampling-request',
      arguments: { prompt: 'the weather', maxTokens: 20 },
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('the weather');
    expect(textOf(result)).toContain('LLM sampling result');
    expect(textOf(result)).toContain('Stormy.');
    expect(retries(sent, 'everything_trigger-sampling-request')).toHaveLength(1);
    await client.close();
  });
});

describe('rondo-gateway in front of a Rondo server with round hooks, for the v1 client (legacy)', () => {
  it('turns the upstream input_required rounds into elicitation/create requests and answers the call', async () => {
    const client = new V1Client(
      { name: 'gateway-legacy-test', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      const name = asked.length === 1 ? { name: 'Alice' } : { color: 'blue' };
      return { action: 'accept', content: name };
    });
    await client.connect(new V1HttpTransport(gateway.url));
    const result = await client.callTool({
      name: 'rondo_test_input_required_result_multi_round',
      arguments: {},
    });
    expect(asked).toEqual(['Step 1: What is your name?', 'Step 2: What is your favorite color?']);
    expect(textOf(result)).toBe('Hello, Alice! Your favorite color is blue.');
    await client.close();
  });
});
