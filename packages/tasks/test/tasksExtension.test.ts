import { afterEach, describe, expect, it } from 'vitest';
import { Client, inMemoryTransport, ProtocolViolationError } from '@rondo/client';
import {
  ConfigurationError,
  MemoryChangeBus,
  MemorySessionRelay,
  MemorySessionStore,
  createMemoryEventStore,
  createServer,
  type Provider,
  type RondoServer,
} from '@rondo/core';
import { extensionSettings, runtimeOf } from '@rondo/core/internal';
import { TASKS_EXTENSION, text } from '@rondo/protocol';
import { composeEndpoint } from '@rondo/server/endpoint';
import { MemoryTaskStore, tasks, type SharedTaskState } from '@rondo/tasks';

// The extension as a user meets it: one `server.use(tasks())`, through a real client in process.

const open: { client: Client; server: RondoServer }[] = [];
afterEach(async () => {
  for (const { client, server } of open.splice(0)) {
    await client.close();
    await server.close();
  }
});

/** A server with one task-optional tool that waits for `release`, `tasks()` used when `use` is given. */
function reportServer(use?: ReturnType<typeof tasks>, options: { shared?: SharedTaskState } = {}) {
  const gate = { release: () => undefined as void };
  const server = createServer({
    name: 'reports',
    version: '1.0.0',
    log: () => undefined,
    ...options,
  });
  if (use) server.use(use);
  server.tool('build_report', { task: 'optional' }, async () => {
    await new Promise<void>((resolve) => (gate.release = resolve));
    return text('report ready');
  });
  return { server, gate };
}

async function connect(server: RondoServer): Promise<Client> {
  const client = new Client({
    transport: inMemoryTransport(composeEndpoint(server)),
    era: '2026-07-28',
  });
  await client.connect();
  open.push({ client, server });
  return client;
}

describe('a server that does not use tasks()', () => {
  it('announces no Tasks extension and runs a task-optional tool as an ordinary call', async () => {
    const { server, gate } = reportServer();
    const client = await connect(server);
    expect(client.capabilities.extensions ?? {}).not.toHaveProperty([TASKS_EXTENSION]);
    expect(runtimeOf(server).extensions.map((extension) => extension.id)).not.toContain(
      TASKS_EXTENSION,
    );
    // The client declares the extension; the server, without it, answers the call itself.
    const asTask = client.callToolAsTask('build_report');
    setTimeout(() => gate.release(), 10);
    await expect(asTask).rejects.toBeInstanceOf(ProtocolViolationError);
  });
});

describe('server.use(tasks())', () => {
  it('announces the extension and makes the call a task whose run it counts', async () => {
    const extension = tasks();
    const { server, gate } = reportServer(extension);
    const client = await connect(server);
    expect(client.capabilities.extensions).toHaveProperty([TASKS_EXTENSION]);
    expect(extension.running).toBe(0);
    const task = await client.callToolAsTask('build_report');
    expect(task.created.status).toBe('working');
    expect(extension.running).toBe(1);
    gate.release();
    expect((await task.result()).content).toEqual([{ type: 'text', text: 'report ready' }]);
    expect(extension.running).toBe(0);
  });

  it('keeps tasks in the shared state’s task store when given no store of its own', async () => {
    const store = new MemoryTaskStore();
    const shared: SharedTaskState = {
      sessions: new MemorySessionStore(),
      events: createMemoryEventStore(),
      changes: new MemoryChangeBus(),
      relay: new MemorySessionRelay(),
      tasks: store,
      close: async () => undefined,
    };
    const { server, gate } = reportServer(tasks(), { shared });
    const client = await connect(server);
    const task = await client.callToolAsTask('build_report');
    expect((await store.get(task.taskId))?.status).toBe('working');
    gate.release();
    await task.result();
    expect((await store.get(task.taskId))?.status).toBe('completed');
  });

  it('serves one server: a second server refuses the same extension', () => {
    const extension = tasks();
    createServer({ name: 'one', version: '1' }).use(extension);
    expect(() => createServer({ name: 'two', version: '1' }).use(extension)).toThrow(
      ConfigurationError,
    );
  });
});

describe('a provider that keeps tasks of its own', () => {
  it('has the Tasks extension announced on the modern wire only, though no tool declares task support', async () => {
    const keeping: Provider = {
      name: 'keeping',
      capabilities: () => ({ tasks: true }),
      tools: () => [{ name: 'relay', inputSchema: { type: 'object' } }],
    };
    const server = createServer({ name: 't', version: '1' }).provider(keeping).use(tasks());
    const runtime = runtimeOf(server);
    await runtime.ready();
    expect(runtime.capabilities().tasks).toBe(true);
    expect(extensionSettings(runtime.extensions, 'modern', runtime)).toHaveProperty([
      TASKS_EXTENSION,
    ]);
    expect(extensionSettings(runtime.extensions, 'legacy', runtime)).not.toHaveProperty([
      TASKS_EXTENSION,
    ]);
    const plain = createServer({ name: 't', version: '1' })
      .tool('relay', {}, () => 'ok')
      .use(tasks());
    await runtimeOf(plain).ready();
    const settings = extensionSettings(runtimeOf(plain).extensions, 'modern', runtimeOf(plain));
    expect(settings).not.toHaveProperty([TASKS_EXTENSION]);
  });
});
