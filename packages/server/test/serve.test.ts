import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import { createEndpoint, createServer, type Endpoint } from '@rondo/core';
import { text } from '@rondo/protocol';
import { serve, type ServeOptions } from '@rondo/server';
import { firstTypeScriptBlock, transpileExample } from '@rondo/test-support/readmeExample';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'serve-test', version: '1.0.0' },
  },
};

/** POSTs `initialize` to a Streamable HTTP endpoint with the headers the transport requires. */
function postInitialize(url: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(INITIALIZE),
  });
}

function greeterEndpoint(): Endpoint {
  const server = createServer({
    name: 'greeter',
    version: '1.0.0',
    requestState: { key: 'serve-test-key-0123456789abcdef012345678' },
  }).tool('greet', { description: 'Says hello.' }, () => text('Hello!'));
  return createEndpoint(server, { modern: modernEra(), legacy: legacyEra() });
}

/** Serves a fresh endpoint and closes both when the test's scope ends. */
async function served(options: ServeOptions) {
  const endpoint = greeterEndpoint();
  const server = await serve(endpoint, options);
  return {
    server,
    async [Symbol.asyncDispose]() {
      await server.close();
      await endpoint.close();
    },
  };
}

describe('serve(endpoint)', () => {
  it('serves stdio on the given streams, and closed resolves at end of input', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    await using running = await served({ transport: 'stdio', input, output, port: 1234 });
    expect(running.server).toMatchObject({ transport: 'stdio', url: undefined });
    input.end(`${JSON.stringify(INITIALIZE)}\n`);
    const [line] = (await once(output, 'data')) as [Buffer];
    expect(JSON.parse(line.toString('utf8'))).toMatchObject({
      id: 1,
      result: { serverInfo: { name: 'greeter' } },
    });
    await running.server.closed;
  });

  it('serves Streamable HTTP on a free port and gives its URL', async () => {
    await using running = await served({ transport: 'http', port: 0 });
    expect(running.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const response = await postInitialize(running.server.url!);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"greeter"');
  });

  it('serves WebSocket on the given path', async () => {
    await using running = await served({ transport: 'ws', path: '/socket' });
    expect(running.server.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/socket$/);
    const socket = new WebSocket(running.server.url!, 'mcp');
    await once(socket, 'open');
    socket.send(JSON.stringify(INITIALIZE));
    const [frame] = (await once(socket, 'message')) as [Buffer];
    expect(JSON.parse(frame.toString('utf8'))).toMatchObject({
      id: 1,
      result: { serverInfo: { name: 'greeter' } },
    });
    socket.close();
  });

  it('closes on a signal named in stopOnSignals, and stops listening for it after', async () => {
    const before = process.listenerCount('SIGUSR2');
    await using running = await served({ transport: 'http', stopOnSignals: ['SIGUSR2'] });
    expect(process.listenerCount('SIGUSR2')).toBe(before + 1);
    process.emit('SIGUSR2', 'SIGUSR2');
    await running.server.closed;
    await expect(fetch(running.server.url!, { method: 'POST' })).rejects.toThrow();
    expect(process.listenerCount('SIGUSR2')).toBe(before);
  });
});

/** What `run` wrote to this process's stderr. */
async function stderrDuring(run: () => Promise<void>): Promise<string> {
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    await run();
    return spy.mock.calls.map(([chunk]) => String(chunk)).join('');
  } finally {
    spy.mockRestore();
  }
}

// Issue 29: serve over HTTP listened on a random port and said nothing.
describe('issue 29: serve tells where it listens', () => {
  it('prints one line with the URL over http and ws, naming a server it composed', async () => {
    const server = () =>
      createServer({ name: 'teller', version: '1.0.0', log: () => undefined }).tool(
        'greet',
        {},
        () => text('Hello!'),
      );
    let urls: string[] = [];
    const printed = await stderrDuring(async () => {
      const http = await serve(server(), { transport: 'http' });
      const ws = await serve(server(), { transport: 'ws' });
      urls = [http.url, ws.url];
      await Promise.all([http.close(), ws.close()]);
    });
    expect(printed).toBe(
      `rondo: serving teller over http at ${urls[0]}\nrondo: serving teller over ws at ${urls[1]}\n`,
    );
  });

  it('prints nothing with quiet: true, nor on stdio', async () => {
    const printed = await stderrDuring(async () => {
      await using _http = await served({ transport: 'http', quiet: true });
      const input = new PassThrough();
      await using stdio = await served({ transport: 'stdio', input, output: new PassThrough() });
      input.end();
      await stdio.server.closed;
    });
    expect(printed).toBe('');
  });

  it('prints the line for an endpoint too, without a server name', async () => {
    let url = '';
    const printed = await stderrDuring(async () => {
      await using running = await served({ transport: 'http' });
      url = running.server.url!;
    });
    expect(printed).toBe(`rondo: serving over http at ${url}\n`);
  });
});

describe('the @rondo/server README', () => {
  const example = firstTypeScriptBlock(`${packageDir}README.md`);

  /** Runs the example as a program of this package, with `env` added to a bare environment. */
  const runExample = (env: Record<string, string>) => {
    const child = spawn(
      process.execPath,
      ['--input-type=module', '-e', transpileExample(example)],
      {
        cwd: packageDir,
        env: {
          PATH: process.env.PATH ?? '',
          RONDO_STATE_KEY: 'readme-key-0123456789abcdef0123456789abc',
          ...env,
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    return { child, exited };
  };

  it('shows examples/greeter.ts as it is', () => {
    expect(example).toBe(readFileSync(`${packageDir}examples/greeter.ts`, 'utf8'));
  });

  it('shows a package.json that makes the example an ES module depending on @rondo/server', () => {
    const readme = readFileSync(`${packageDir}README.md`, 'utf8');
    const manifest = /```json\n([\s\S]*?)```/.exec(readme)?.[1] ?? '{}';
    expect(JSON.parse(manifest)).toEqual({
      type: 'module',
      dependencies: { '@rondo/server': expect.any(String) },
    });
  });

  it('runs its example on stdio: answers, then exits 0 at end of input', async () => {
    const { child, exited } = runExample({ TRANSPORT: 'stdio' });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stdin.end(`${JSON.stringify(INITIALIZE)}\n`);
    expect(await exited).toBe(0);
    expect(JSON.parse(stdout.trim())).toMatchObject({
      id: 1,
      result: { serverInfo: { name: 'greeter' } },
    });
  });

  // Issue 29: serve over HTTP listened on a port nobody was told about.
  it('runs its example on HTTP (the default): serve prints where, and it exits 0 on SIGTERM', async () => {
    const { child, exited } = runExample({ PORT: '0' });
    let stderr = '';
    const url = await new Promise<string>((resolve) =>
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        const found =
          /^rondo: serving greeter over http at (http:\/\/127\.0\.0\.1:\d+\/mcp)$/m.exec(stderr);
        if (found?.[1]) resolve(found[1]);
      }),
    );
    const response = await postInitialize(url);
    expect(response.status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
