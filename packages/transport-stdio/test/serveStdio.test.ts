import { Writable, PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { serveStdio } from '@rondo/transport-stdio';
import { ScriptedEndpoint } from './support/scriptedEndpoint.js';
import { requestLine, serveInMemory } from './support/lines.js';

describe('serveStdio', () => {
  it('opens exactly one connection and answers a request line with one response line', async () => {
    const endpoint = new ScriptedEndpoint();
    const io = serveInMemory(endpoint);
    io.input.write(requestLine(1, 'echo', { hello: 'world' }));
    expect(await io.waitForLines(1)).toEqual([
      { jsonrpc: '2.0', id: 1, result: { hello: 'world' } },
    ]);
    io.input.write(requestLine(2, 'echo'));
    await io.waitForLines(2);
    expect(endpoint.connections).toBe(1);
    await io.server.close();
  });

  it('writes answers as they complete, not in arrival order', async () => {
    const io = serveInMemory(new ScriptedEndpoint());
    io.input.write(requestLine('slow', 'slow', { ms: 100 }) + requestLine('fast', 'echo'));
    const lines = (await io.waitForLines(2)) as { id: string }[];
    expect(lines.map((line) => line.id)).toEqual(['fast', 'slow']);
    await io.server.close();
  });

  it('writes an exchange notifications before its answer and peer messages on the same stream', async () => {
    const io = serveInMemory(new ScriptedEndpoint());
    io.input.write(requestLine(1, 'chatty') + requestLine(2, 'announce'));
    const lines = (await io.waitForLines(5)) as { method?: string; id?: number }[];
    expect(lines.map((line) => line.method ?? line.id)).toEqual([
      'notifications/progress',
      'notifications/progress',
      1,
      'notifications/tools/list_changed',
      2,
    ]);
    await io.server.close();
  });

  it('answers a malformed line with -32700 and id null, then keeps serving', async () => {
    const io = serveInMemory(new ScriptedEndpoint());
    io.input.write('{"jsonrpc":"2.0",\n' + requestLine(7, 'echo'));
    expect(await io.waitForLines(2)).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } },
      { jsonrpc: '2.0', id: 7, result: {} },
    ]);
    await io.server.close();
  });

  it('answers an invalid request with -32600 carrying its id', async () => {
    const io = serveInMemory(new ScriptedEndpoint());
    io.input.write('{"jsonrpc":"1.0","id":3,"method":"echo"}\n');
    expect(await io.waitForLines(1)).toEqual([
      { jsonrpc: '2.0', id: 3, error: { code: -32600, message: expect.any(String) } },
    ]);
    await io.server.close();
  });

  it('answers an oversized line with -32600 and id null, then keeps serving', async () => {
    const io = serveInMemory(new ScriptedEndpoint(), { maxLineBytes: 1024 });
    io.input.write(
      `{"jsonrpc":"2.0","id":1,"method":"echo","params":{"x":"${'x'.repeat(4000)}"}}\n`,
    );
    io.input.write(requestLine(2, 'echo'));
    expect(await io.waitForLines(2)).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32600,
          message: expect.stringContaining('1024'),
          data: { maxLineBytes: 1024 },
        },
      },
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
    await io.server.close();
  });

  it('answers bytes that are not UTF-8 with -32700', async () => {
    const io = serveInMemory(new ScriptedEndpoint());
    io.input.write(Buffer.from([0x7b, 0xc3, 0x28, 0x7d, 0x0a]));
    expect(await io.waitForLines(1)).toMatchObject([{ id: null, error: { code: -32700 } }]);
    await io.server.close();
  });

  it('reads a request whose multi-byte characters are split across chunks', async () => {
    const io = serveInMemory(new ScriptedEndpoint());
    const line = Buffer.from(requestLine(1, 'echo', { word: 'naïve 日本 🌍' }), 'utf8');
    for (const byte of line) io.input.write(Buffer.from([byte]));
    expect(await io.waitForLines(1)).toEqual([
      { jsonrpc: '2.0', id: 1, result: { word: 'naïve 日本 🌍' } },
    ]);
    await io.server.close();
  });

  it('answers -32603 when the connection throws, and keeps serving', async () => {
    const io = serveInMemory(new ScriptedEndpoint());
    io.input.write(requestLine(1, 'throw') + requestLine(2, 'echo'));
    expect(await io.waitForLines(2)).toMatchObject([{ id: 1, error: { code: -32603 } }, { id: 2 }]);
    expect(io.errors.map((e) => e.message)).toEqual(['scripted failure']);
    await io.server.close();
  });

  it('drains in-flight work at end of input, then resolves closed', async () => {
    const endpoint = new ScriptedEndpoint();
    const io = serveInMemory(endpoint);
    io.input.end(requestLine(1, 'slow', { ms: 80 }));
    let closed = false;
    void io.server.closed.then(() => (closed = true));
    await sleep(20);
    expect(closed).toBe(false);
    await io.server.closed;
    expect(io.lines).toEqual([{ jsonrpc: '2.0', id: 1, result: { slept: 80 } }]);
    expect(endpoint.closedConnections).toBe(1);
  });

  it('aborts work still open when the drain deadline passes', async () => {
    const endpoint = new ScriptedEndpoint();
    const io = serveInMemory(endpoint, { drainTimeoutMs: 50 });
    io.input.end(requestLine('stuck', 'hang'));
    await io.server.closed;
    expect(endpoint.aborted).toEqual(['stuck']);
    expect(io.errors[0]?.message).toMatch(/open after end of input/);
  });

  it('close() aborts in-flight signals and closes the connection', async () => {
    const endpoint = new ScriptedEndpoint();
    const io = serveInMemory(endpoint);
    io.input.write(requestLine(1, 'hang'));
    await sleep(10);
    await io.server.close();
    expect(endpoint.aborted).toEqual([1]);
    expect(endpoint.closedConnections).toBe(1);
  });

  it('stops reading while the output is full and resumes on drain', async () => {
    const input = new PassThrough();
    let release: (() => void) | undefined;
    const written: string[] = [];
    const output = new Writable({
      highWaterMark: 50,
      write(chunk: Buffer, _encoding, callback) {
        written.push(chunk.toString());
        release = callback;
      },
    });
    const server = serveStdio(new ScriptedEndpoint(), { input, output });
    input.write(requestLine(1, 'echo', { pad: 'x'.repeat(64) }));
    await sleep(10);
    expect(input.isPaused()).toBe(true);
    input.write(requestLine(2, 'echo'));
    await sleep(10);
    expect(written).toHaveLength(1);
    release?.();
    await sleep(10);
    expect(input.isPaused()).toBe(false);
    release?.();
    await sleep(10);
    expect(written).toHaveLength(2);
    await server.close();
  });

  it('finishes when the output fails (the reader went away)', async () => {
    const endpoint = new ScriptedEndpoint();
    const io = serveInMemory(endpoint);
    io.output.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    await io.server.closed;
    expect(io.errors[0]?.message).toMatch(/EPIPE/);
    expect(endpoint.closedConnections).toBe(1);
  });

  it('finishes when the input fails, and survives a later input error', async () => {
    const endpoint = new ScriptedEndpoint();
    const io = serveInMemory(endpoint);
    io.input.emit('error', new Error('stdin exploded'));
    await io.server.closed;
    expect(io.errors[0]?.message).toMatch(/stdin exploded/);
    expect(() => io.input.emit('error', new Error('again'))).not.toThrow();
    expect(endpoint.closedConnections).toBe(1);
  });
});
