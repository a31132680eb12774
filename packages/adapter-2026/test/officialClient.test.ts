import { LazyAbortController } from '@rondo/core/internal';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import type { JsonRpcMessage } from '@rondo/protocol';
import { createEndpoint, type Connection, type Endpoint } from '@rondo/core';
import { modernEra } from '../src/index.js';
import { buildTestServer } from './support/testServer.js';

type ClientTransport = Parameters<Client['connect']>[0];
type ClientMessage = Parameters<ClientTransport['send']>[0];

/** The official client's transport interface, bridged in memory to a Rondo endpoint through JSON text. */
class EndpointTransport implements ClientTransport {
  onmessage?: ClientTransport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private connection: Connection | undefined;

  constructor(private readonly endpoint: Endpoint) {}

  async start(): Promise<void> {
    this.connection = this.endpoint.connect({ send: (message) => this.deliver(message) });
  }

  async send(message: ClientMessage): Promise<void> {
    const copy = JSON.parse(JSON.stringify(message)) as JsonRpcMessage;
    this.connection?.receive(copy, {
      send: (out) => this.deliver(out),
      end: (out) => out && this.deliver(out),
      cancellation: new LazyAbortController(),
    });
  }

  async close(): Promise<void> {
    this.connection?.close();
    this.onclose?.();
  }

  private deliver(message: JsonRpcMessage): void {
    const copy = JSON.parse(JSON.stringify(message)) as ClientMessage;
    queueMicrotask(() => this.onmessage?.(copy));
  }
}

const open: Client[] = [];
afterEach(async () => {
  for (const client of open.splice(0)) await client.close();
});

async function connect(server = buildTestServer()): Promise<Client> {
  const client = new Client(
    { name: 'official-client-test', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    },
  );
  // Answers whatever field the form asks for.
  const answers: Record<string, string> = { name: 'Alice', color: 'blue', context: 'test context' };
  client.setRequestHandler('elicitation/create', async (request) => {
    const schema = (request.params as { requestedSchema: { properties: Record<string, unknown> } })
      .requestedSchema;
    const field = Object.keys(schema.properties)[0] ?? 'name';
    return { action: 'accept', content: { [field]: answers[field] ?? '' } };
  });
  client.setRequestHandler('sampling/createMessage', async () => ({
    role: 'assistant',
    model: 'test-model',
    content: { type: 'text', text: 'Hello there!' },
  }));
  client.setRequestHandler('roots/list', async () => ({
    roots: [{ uri: 'file:///test/root', name: 'Test Root' }],
  }));
  await client.connect(new EndpointTransport(createEndpoint(server, { modern: modernEra() })));
  open.push(client);
  return client;
}

describe('the official @modelcontextprotocol/client pinned to 2026-07-28', () => {
  it('discovers the server on the modern era', async () => {
    const client = await connect();
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getServerVersion()).toMatchObject({
      name: 'adapter-2026-test',
      version: '1.2.3',
    });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('greet');
  });

  it('fulfils elicitation, multi-round and multiple-input requests', async () => {
    const client = await connect();
    const greet = await client.callTool({ name: 'greet', arguments: {} });
    expect(greet.content).toEqual([{ type: 'text', text: 'Hello, Alice!' }]);
    const rounds = await client.callTool({ name: 'three_rounds', arguments: {} });
    expect(rounds.content).toEqual([{ type: 'text', text: 'Alice likes blue (round 3)' }]);
    const several = await client.callTool({ name: 'multiple_inputs', arguments: {} });
    expect(several.content).toEqual([
      { type: 'text', text: 'Hello, Alice! {"type":"text","text":"Hello there!"} roots=1' },
    ]);
  });

  it('fulfils a prompt round and reads resources', async () => {
    const client = await connect();
    const prompt = await client.getPrompt({ name: 'ask_context' });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Context: test context' });
    const read = await client.readResource({ uri: 'test://static' });
    expect(read.contents[0]).toMatchObject({ uri: 'test://static', text: 'static text' });
  });

  it('opens a subscription and receives progress on its own request', async () => {
    const server = buildTestServer();
    const client = await connect(server);
    const subscription = await client.listen({ toolsListChanged: true });
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler('notifications/tools/list_changed', () => resolve()),
    );
    server.tool('added_later', { description: 'Added while listening.' }, () => 'later');
    await changed;
    await subscription.close();
    const progress: number[] = [];
    await client.callTool(
      { name: 'observe', arguments: {} },
      { onprogress: (update) => void progress.push(update.progress) },
    );
    expect(progress).toEqual([0, 50, 100]);
  });
});
