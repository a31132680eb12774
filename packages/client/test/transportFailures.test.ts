import { createServer, type Server } from 'node:http';
import { Client, httpTransport } from '@rondo/client';
import { stdioTransport } from '@rondo/client/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What a failed connection says: the cause underneath fetch's "fetch failed", and the fix for a
// command that cannot start.

async function connectFailure(client: Client): Promise<Error> {
  const failure = await client.connect().then(
    () => new Error('connected'),
    (error: unknown) => error as Error,
  );
  await client.close().catch(() => undefined);
  return failure;
}

describe('an HTTP connection that fails', () => {
  let plain: Server;
  let closedPort = 0;
  beforeAll(async () => {
    plain = createServer((_req, res) => res.end('not MCP'));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedPort = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
  });
  afterAll(() => new Promise((resolve) => plain.close(resolve)));

  it('says the connection was refused, not only "fetch failed"', async () => {
    const url = `http://127.0.0.1:${closedPort}/mcp`;
    const failure = await connectFailure(new Client({ transport: httpTransport({ url }) }));
    expect(failure.name).toBe('TransportError');
    expect(failure.message).toMatch(/fetch failed: .*ECONNREFUSED 127\.0\.0\.1:\d+/);
  });

  it('says what went wrong with TLS when https meets a plain HTTP server', async () => {
    const { port } = plain.address() as { port: number };
    const url = `https://127.0.0.1:${port}/mcp`;
    const failure = await connectFailure(new Client({ transport: httpTransport({ url }) }));
    expect(failure.message).toMatch(/fetch failed: \S/);
    expect(failure.message).toMatch(/SSL|TLS|ssl|tls|version|packet/);
  });
});

describe('a stdio command that cannot start', () => {
  it('shows how to split a whole command line into command and args', async () => {
    const transport = stdioTransport({ command: 'npx -y @modelcontextprotocol/server-everything' });
    const failure = await connectFailure(new Client({ transport }));
    expect(failure.message).toContain('ENOENT');
    expect(failure.message).toContain(
      'give its arguments as args, "command": "npx", "args": ["-y","@modelcontextprotocol/server-everything"]',
    );
  });

  it('says a program the PATH does not find wants its absolute path', async () => {
    const transport = stdioTransport({ command: 'rondo-no-such-program' });
    const failure = await connectFailure(new Client({ transport }));
    expect(failure.message).toMatch(
      /^cannot start rondo-no-such-program: spawn rondo-no-such-program ENOENT \(not found: give its absolute path/,
    );
  });
});

describe('a stdio server that stops reading, then exits', () => {
  // The server closes its stdin at once and exits a moment later: the client's write finds the
  // pipe broken before the exit is reported, as a busy machine orders them.
  const server = [
    "require('node:fs').closeSync(0);",
    "process.stderr.write('ready\\n');",
    "setTimeout(() => { process.stderr.write('FATAL: cannot open the database\\n'); process.exit(3); }, 300);",
  ].join(' ');

  it('names the exit and its last words, not the broken pipe', async () => {
    let ready!: () => void;
    const started = new Promise<void>((resolve) => (ready = resolve));
    const transport = stdioTransport({
      command: process.execPath,
      args: ['-e', server],
      onStderr: (text) => text.includes('ready') && ready(),
    });
    const closed: (Error | undefined)[] = [];
    await transport.start({
      receive: () => undefined,
      refused: () => undefined,
      closed: (error) => closed.push(error),
    });
    await started;
    const failure = await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' }).then(
      () => new Error('written'),
      (error: unknown) => error as Error,
    );
    expect(failure.name).toBe('ServerExitedError');
    expect(failure.message).toBe('the server process exited (code 3, signal null)');
    expect((failure as { stderr?: string }).stderr).toContain('FATAL: cannot open the database');
    expect(closed).toHaveLength(1);
    await transport.close();
  });
});
