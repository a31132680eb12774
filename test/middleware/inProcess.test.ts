import { afterEach, describe, expect, it } from 'vitest';
import { Client, inMemoryTransport } from '@rondo/client';
import { createServer, text, type McpCall, type RondoServer } from '@rondo/core';
import { runtimeOf } from '@rondo/core/internal';
import { composeEndpoint } from '@rondo/server';

// RondoServer is registration only: calling a tool in process goes through an endpoint (the
// client's in-memory transport), so the pipeline and the middleware run, as for any transport.
// The runtime's own operations are what the pipeline calls inside the middleware.

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

/** A server whose middleware records each call's method and name; `add` adds. */
function recordedServer(name: string, seen: string[]): RondoServer {
  return createServer({ name, version: '1.0.0', log: () => undefined })
    .use(async (call: McpCall, next) => {
      const tool = typeof call.params.name === 'string' ? call.params.name : '';
      seen.push(`${name} ${call.method} ${tool}`);
      return next();
    })
    .tool('add', {}, () => text('3'));
}

async function inProcess(server: RondoServer, era: '2026-07-28' | '2025-11-25'): Promise<Client> {
  const client = new Client({ transport: inMemoryTransport(composeEndpoint(server)), era });
  clients.push(client);
  await client.connect();
  return client;
}

describe('an in-process call', () => {
  for (const era of ['2026-07-28', '2025-11-25'] as const) {
    it(`runs the server's middleware around the tool (${era})`, async () => {
      const seen: string[] = [];
      const client = await inProcess(recordedServer('calc', seen), era);
      const result = await client.callTool('add', {});
      expect(result.content).toEqual([{ type: 'text', text: '3' }]);
      expect(seen).toContain('calc tools/call add');
    });
  }

  it("runs the host's middleware, then the mounted server's with its own names", async () => {
    const seen: string[] = [];
    const host = recordedServer('host', seen).mount(recordedServer('calc', seen), {
      namespace: 'calc',
    });
    const client = await inProcess(host, '2026-07-28');
    await client.callTool('calc_add', {});
    expect(seen.filter((line) => line.includes('tools/call'))).toEqual([
      'host tools/call calc_add',
      'calc tools/call add',
    ]);
  });

  it('is not offered by the server: it has registration only, the runtime serves', () => {
    const server = recordedServer('calc', []);
    const members = Object.getOwnPropertyNames(Object.getPrototypeOf(server)).filter(
      (name) => name !== 'constructor' && name !== 'runtime',
    );
    expect(members.length).toBeLessThanOrEqual(15);
    for (const served of ['callTool', 'getPrompt', 'readResource', 'catalog', 'sealer'])
      expect(members).not.toContain(served);
    expect(runtimeOf(server)).toBe(runtimeOf(server));
    expect(typeof runtimeOf(server).callTool).toBe('function');
    expect(() => runtimeOf({} as RondoServer)).toThrow(TypeError);
  });
});
