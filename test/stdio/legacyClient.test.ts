import { afterEach, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { fixtureServerParams } from './support/fixture.js';
import { askForVersion, tapTransport, type WireTap } from './support/clientTap.js';
import { formAnswer, textOf } from './support/wire.js';
import { WireValidator } from '@rondo/test-support/specSchemas';

// Issue 4, done-when 1-3: the official v1 client over stdio against `pnpm fixture --transport stdio`.

type Revision = '2025-11-25' | '2025-06-18';
const open: { client: Client; tap: WireTap; revision: Revision }[] = [];

async function connectLegacy(revision: Revision = '2025-11-25') {
  const elicited: { message: string }[] = [];
  const client = new Client(
    { name: 'rondo-legacy-stdio-test', version: '1.0.0' },
    { capabilities: { elicitation: {}, sampling: {} } },
  );
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    elicited.push(request.params);
    const answers = {
      name: 'Bob',
      color: 'green',
      username: 'testuser',
      email: 'test@example.com',
    };
    return { action: 'accept', content: formAnswer(request.params, answers) };
  });
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: 'assistant',
    model: 'test-model',
    content: { type: 'text', text: 'This is a test response from the client' },
    stopReason: 'endTurn',
  }));
  const transport = new StdioClientTransport(fixtureServerParams());
  const tap = tapTransport(
    transport,
    revision === '2025-11-25' ? undefined : askForVersion(revision),
  );
  await client.connect(transport);
  open.push({ client, tap, revision });
  return { client, tap, elicited };
}

afterEach(async () => {
  for (const { client, tap, revision } of open.splice(0)) {
    await client.close();
    const validator = WireValidator.load(revision);
    if (validator) expect(validator.problems(tap.received, tap.sent)).toEqual([]);
  }
}, scaled(30_000));

describe('the v1 client over stdio', { timeout: scaled(30_000) }, () => {
  it('negotiates 2025-11-25 and pings', async () => {
    const { client, tap } = await connectLegacy();
    const init = tap.received.find((m) => m.result?.protocolVersion);
    expect(init?.result?.protocolVersion).toBe('2025-11-25');
    expect(client.getServerVersion()?.name).toBe('rondo-conformance-fixture');
    expect(await client.ping()).toEqual({});
  });

  it('gets 2025-06-18 when it asks for 2025-06-18, and is served on that wire', async () => {
    const { client, tap } = await connectLegacy('2025-06-18');
    expect(tap.received.find((m) => m.result?.protocolVersion)?.result?.protocolVersion).toBe(
      '2025-06-18',
    );
    const result = await client.callTool({ name: 'test_simple_text', arguments: {} });
    expect(textOf(result)).toBe('This is a simple text response for testing.');
    await client.listTools();
    await client.listPrompts();
  });

  it('lists and calls tools', async () => {
    const { client } = await connectLegacy();
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(20);
    expect(tools.every((tool) => tool.description && tool.inputSchema)).toBe(true);
    const image = await client.callTool({ name: 'test_image_content', arguments: {} });
    expect((image.content as unknown[])[0]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    const failed = await client.callTool({ name: 'test_error_handling', arguments: {} });
    expect(failed.isError).toBe(true);
  });

  it('lists and reads resources and templates', async () => {
    const { client } = await connectLegacy();
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(
      expect.arrayContaining([
        'test://static-text',
        'test://static-binary',
        'test://watched-resource',
      ]),
    );
    const { resourceTemplates } = await client.listResourceTemplates();
    // The fixture's skills (the Skills extension) are read through a template of their own.
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'test://template/{id}/data',
      'skill://{skill}/{+path}',
    ]);
    const binary = await client.readResource({ uri: 'test://static-binary' });
    expect(binary.contents[0]).toMatchObject({ mimeType: 'image/png', blob: expect.any(String) });
    const templated = await client.readResource({ uri: 'test://template/42/data' });
    expect((templated.contents[0] as { text: string }).text).toContain('"id":"42"');
    await expect(client.readResource({ uri: 'test://nope' })).rejects.toMatchObject({
      code: -32002,
    });
  });

  it('subscribes to the watched resource and gets an update notification', async () => {
    const { client } = await connectLegacy();
    const updated = new Promise<string>((resolve) =>
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) =>
        resolve(n.params.uri),
      ),
    );
    await client.subscribeResource({ uri: 'test://watched-resource' });
    expect(await updated).toBe('test://watched-resource');
    await client.unsubscribeResource({ uri: 'test://watched-resource' });
  });

  it('answers the legacy elicitation and sampling tools through real server requests', async () => {
    const { client, elicited } = await connectLegacy();
    const elicitation = await client.callTool({
      name: 'test_elicitation',
      arguments: { message: 'Please provide your information' },
    });
    expect(textOf(elicitation)).toBe(
      'User response: action=accept, content={"username":"testuser","email":"test@example.com"}',
    );
    expect(elicited[0]?.message).toBe('Please provide your information');
    const sampled = await client.callTool({
      name: 'test_sampling',
      arguments: { prompt: 'Test prompt for sampling' },
    });
    expect(textOf(sampled)).toBe('LLM response: This is a test response from the client');
  });

  it('completes test_input_required_result_multi_round, unchanged, through real elicitation/create requests (the shim)', async () => {
    const { client, tap, elicited } = await connectLegacy();
    const result = await client.callTool({
      name: 'test_input_required_result_multi_round',
      arguments: {},
    });
    expect(textOf(result)).toBe('Hello, Bob! Your favorite color is green.');
    expect(elicited.map((params) => params.message)).toEqual([
      'Step 1: What is your name?',
      'Step 2: What is your favorite color?',
    ]);
    expect(tap.received.filter((m) => m.method === 'elicitation/create')).toHaveLength(2);
    expect(tap.received.some((m) => m.result && 'resultType' in m.result)).toBe(false);
  });
});
