import { afterEach, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { fixtureServerParams } from './support/fixture.js';
import { tapTransport, type WireTap } from './support/clientTap.js';
import { formAnswer, textOf } from './support/wire.js';
import { WireValidator } from '@rondo/test-support/specSchemas';

// Issue 3, done-when 1 and 3: the official v2 client, pinned to 2026-07-28, over its own stdio
// transport against `pnpm fixture --transport stdio`, answering input_required rounds itself.

const validator = WireValidator.load('2026-07-28');
const open: { client: Client; tap: WireTap }[] = [];

async function connectModern(): Promise<{ client: Client; tap: WireTap; asked: string[] }> {
  const asked: string[] = [];
  const client = new Client(
    { name: 'rondo-modern-stdio-test', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params.message);
    const answers = { name: 'Alice', color: 'blue', ok: true, context: 'test context' };
    return { action: 'accept', content: formAnswer(request.params, answers) };
  });
  client.setRequestHandler('sampling/createMessage', async () => ({
    role: 'assistant',
    model: 'test-model',
    content: { type: 'text', text: 'Hello there!' },
  }));
  client.setRequestHandler('roots/list', async () => ({
    roots: [{ uri: 'file:///test/root', name: 'Test Root' }],
  }));
  const transport = new StdioClientTransport(fixtureServerParams());
  const tap = tapTransport(transport);
  await client.connect(transport);
  open.push({ client, tap });
  return { client, tap, asked };
}

afterEach(async () => {
  for (const { client, tap } of open.splice(0)) {
    await client.close();
    if (validator) expect(validator.problems(tap.received, tap.sent)).toEqual([]);
  }
}, scaled(30_000));

describe('the v2 client pinned to 2026-07-28 over stdio', { timeout: scaled(30_000) }, () => {
  it('speaks the modern era and reads the fixture identity from server/discover', async () => {
    const { client } = await connectModern();
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('test_input_required_result_elicitation');
    expect(tools.every((tool) => tool.description)).toBe(true);
  });

  it('completes the multi-round variant over three rounds with a new requestState each time', async () => {
    const { client, tap, asked } = await connectModern();
    const result = await client.callTool({
      name: 'test_input_required_result_multi_round',
      arguments: {},
    });
    expect(textOf(result)).toBe('Hello, Alice! Your favorite color is blue.');
    expect(asked).toEqual(['Step 1: What is your name?', 'Step 2: What is your favorite color?']);
    const states = tap.received.map((m) => m.result?.requestState).filter(Boolean);
    expect(states).toHaveLength(2);
    expect(states[0]).not.toBe(states[1]);
  });

  it('completes the request-state variant, echoing the state byte for byte', async () => {
    const { client, tap } = await connectModern();
    const result = await client.callTool({
      name: 'test_input_required_result_request_state',
      arguments: {},
    });
    expect(textOf(result)).toContain('state-ok');
    const state = tap.received.find((m) => m.result?.requestState)?.result?.requestState;
    expect(tap.sent.filter((m) => m.method === 'tools/call')[1]?.params?.requestState).toBe(state);
  });

  it('completes the multiple-inputs variant: elicitation, sampling and roots in one round', async () => {
    const { client, tap } = await connectModern();
    const result = await client.callTool({
      name: 'test_input_required_result_multiple_inputs',
      arguments: {},
    });
    expect(textOf(result)).toBe('Name: Alice; greeting: Hello there!; roots: 1');
    const round = tap.received.find((m) => m.result?.resultType === 'input_required');
    const methods = Object.values(round?.result?.inputRequests ?? {})
      .map((r) => r.method)
      .sort();
    expect(methods).toEqual(['elicitation/create', 'roots/list', 'sampling/createMessage']);
  });

  it('completes the prompt variant: prompts/get with an input_required round', async () => {
    const { client, asked } = await connectModern();
    const result = await client.getPrompt({
      name: 'test_input_required_result_prompt',
      arguments: {},
    });
    expect(asked).toEqual(['What context should the prompt use?']);
    expect(result.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Use this context: test context' } },
    ]);
  });

  it('completes the sampling and list-roots variants', async () => {
    const { client } = await connectModern();
    const sampled = await client.callTool({
      name: 'test_input_required_result_sampling',
      arguments: {},
    });
    expect(textOf(sampled)).toBe('The model answered: Hello there!');
    const rooted = await client.callTool({
      name: 'test_input_required_result_list_roots',
      arguments: {},
    });
    expect(textOf(rooted)).toBe('Found 1 root(s): file:///test/root');
  });
});
