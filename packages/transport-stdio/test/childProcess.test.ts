import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./fixtures/echoServer.mjs', import.meta.url));

/** Runs the echo server with `stdin` as its whole input; resolves with what it wrote and its exit code. */
function runWithInput(stdin: string | Buffer, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [script], {
    stdio: 'pipe',
    env: { ...process.env, ...env },
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  child.stdin.end(stdin);
  return new Promise<{ code: number | null; lines: string[]; stderr: string }>((resolve) => {
    child.on('close', (code) =>
      resolve({
        code,
        lines: Buffer.concat(stdout).toString('utf8').split('\n').filter(Boolean),
        stderr: Buffer.concat(stderr).toString('utf8'),
      }),
    );
  });
}

const request = (id: number, method: string, params: object = {}) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params });

describe('serveStdio in a real child process', () => {
  it('drains in-flight work after stdin ends, then exits 0 with only JSON-RPC on stdout', async () => {
    const input =
      [request(1, 'slow', { ms: 150 }), 'not json', request(2, 'echo', { a: 1 })].join('\n') + '\n';
    const result = await runWithInput(input);
    expect(result.code).toBe(0);
    expect(result.lines.map((line) => JSON.parse(line))).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } },
      { jsonrpc: '2.0', id: 2, result: { a: 1 } },
      { jsonrpc: '2.0', id: 1, result: { slept: 150 } },
    ]);
    expect(result.stderr).toContain('echo server ready');
    expect(result.stderr).toContain('echo server done');
  });

  it('answers 1,000 requests written at once, each matched by id', async () => {
    const input =
      Array.from({ length: 1000 }, (_, i) => request(i, 'echo', { i })).join('\n') + '\n';
    const result = await runWithInput(input);
    expect(result.code).toBe(0);
    const answers = result.lines.map(
      (line) => JSON.parse(line) as { id: number; result: { i: number } },
    );
    expect(answers).toHaveLength(1000);
    expect(answers.every((answer) => answer.result.i === answer.id)).toBe(true);
    expect(new Set(answers.map((answer) => answer.id)).size).toBe(1000);
  });

  it('skips an oversized line without holding it, and keeps serving', async () => {
    const huge = request(1, 'echo', { pad: 'x'.repeat(300_000) });
    const result = await runWithInput(`${huge}\n${request(2, 'echo')}\n`, {
      MAX_LINE_BYTES: '65536',
    });
    expect(result.code).toBe(0);
    expect(result.lines.map((line) => JSON.parse(line))).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: expect.any(String), data: { maxLineBytes: 65536 } },
      },
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
  });

  it('exits 0 at once when stdin closes with nothing in flight', async () => {
    const result = await runWithInput('');
    expect(result).toMatchObject({ code: 0, lines: [] });
  });
});
