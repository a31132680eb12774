import { createRequire } from 'node:module';
import { Client, httpTransport, type ClientHandlers } from '@rondo/client';
import { stdioTransport } from '@rondo/client/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { startSdkServer } from './support/sdkServer.js';

// Issue 25, done-when 2: the client talks to servers no one here wrote: the official
// server-everything over stdio (legacy era, found by `auto`), and an SDK v2 server over HTTP
// pinned to 2026-07-28 with an input_required tool.
const require = createRequire(import.meta.url);
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

const asked: string[] = [];
const handlers: ClientHandlers = {
  elicitation: (params) => {
    asked.push(`elicitation: ${params.message}`);
    return { action: 'accept', content: { name: 'Ada', ok: true } };
  },
  sampling: () => {
    asked.push('sampling');
    return {
      role: 'assistant',
      content: { type: 'text', text: 'sampled by rondo' },
      model: 'test-model',
    };
  },
  roots: () => [{ uri: 'file:///work', name: 'work' }],
};

function textOf(result: { content: unknown[] }): string {
  return result.content.map((item) => (item as { text?: string }).text ?? '').join('\n');
}

describe('the official server-everything over stdio', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({
      transport: stdioTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'] }),
      handlers,
    });
    const facts = await client.connect();
    expect(facts.era).toBe('legacy');
    expect(facts.serverInfo?.name).toContain('everything');
  });
  afterAll(async () => {
    await client.close();
  });

  it('lists and calls tools, structured content included', async () => {
    const tools = await client.listAllTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'get-sum']));
    expect(textOf(await client.callTool('echo', { message: 'hi' }))).toContain('hi');
    const structured = await client.callTool('get-structured-content', { location: 'New York' });
    expect(structured.structuredContent).toMatchObject({ temperature: expect.any(Number) });
  });

  it("answers its elicitation and sampling tools with the client's handlers", async () => {
    const elicited = await client.callTool('trigger-elicitation-request');
    expect(textOf(elicited)).toContain('accept');
    const sampled = await client.callTool('trigger-sampling-request', { prompt: 'Say hi' });
    expect(textOf(sampled)).toContain('sampled by rondo');
    expect(asked).toEqual(expect.arrayContaining(['sampling']));
    expect(asked.some((question) => question.startsWith('elicitation: '))).toBe(true);
  });

  it('reads resources and templates, gets prompts and completes arguments', async () => {
    const resources = await client.listAllResources();
    expect(resources.length).toBeGreaterThan(0);
    const read = await client.readResource(resources[0]!.uri);
    expect(read.contents[0]!.uri).toBe(resources[0]!.uri);
    const templates = await client.listAllResourceTemplates();
    expect(templates.length).toBeGreaterThan(0);
    const prompt = await client.getPrompt('args-prompt', { city: 'Paris' });
    expect(JSON.stringify(prompt.messages)).toContain('Paris');
    const completed = await client.complete(
      { type: 'ref/prompt', name: 'completable-prompt' },
      { name: 'department', value: 'E' },
    );
    expect(completed.completion.values).toContain('Engineering');
  });

  it('hears a subscribed resource change', { timeout: scaled(30_000) }, async () => {
    const [resource] = await client.listAllResources();
    const subscription = await client.subscribe({ resources: [resource!.uri] });
    const heard = new Promise<string>((resolve) => {
      const off = client.on('resourceUpdated', ({ uri }) => {
        off();
        resolve(uri);
      });
    });
    await client.callTool('toggle-subscriber-updates');
    try {
      expect(await heard).toBe(resource!.uri);
    } finally {
      await client.callTool('toggle-subscriber-updates');
      await subscription.close();
    }
  });

  it(
    'runs a tool as a 2025-11-25 task, answering the input the task asks for',
    { timeout: scaled(60_000) },
    async () => {
      const task = await client.callToolAsTask('simulate-research-query', {
        topic: 'MCP',
        ambiguous: true,
      });
      expect(task.created.status).toBe('working');
      const result = await task.result();
      expect(textOf(result)).toContain('Research Report');
      expect(asked.some((question) => question.includes('interpretations'))).toBe(true);
    },
  );
});

describe('an SDK v2 server over HTTP, pinned to 2026-07-28', () => {
  let server: Awaited<ReturnType<typeof startSdkServer>>;
  let client: Client;
  beforeAll(async () => {
    server = await startSdkServer();
    client = new Client({
      transport: httpTransport({ url: server.url }),
      era: '2026-07-28',
      handlers,
    });
    expect((await client.connect()).protocolVersion).toBe('2026-07-28');
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('calls a tool', async () => {
    expect(textOf(await client.callTool('echo', { text: 'over http' }))).toBe('over http');
  });

  it('completes an input_required tool by answering its elicitation and echoing its requestState', async () => {
    const result = await client.callTool('confirm', { what: 'deploy' });
    expect(textOf(result)).toBe('deploy: true');
  });
});
