import { PassThrough } from 'node:stream';
import { serveStdio, type StdioOptions } from '@rondo/transport-stdio';
import type { Endpoint } from '@rondo/core';

/** A stdio server on in-memory streams, with the output split into parsed lines. */
export function serveInMemory(endpoint: Endpoint, options: StdioOptions = {}) {
  const input = new PassThrough();
  const output = new PassThrough();
  const errors: Error[] = [];
  const lines: unknown[] = [];
  const raw: string[] = [];
  const waiters: (() => void)[] = [];
  let rest = '';
  output.on('data', (chunk: Buffer) => {
    const text = rest + chunk.toString('utf8');
    const parts = text.split('\n');
    rest = parts.pop() ?? '';
    for (const part of parts) {
      raw.push(part);
      lines.push(JSON.parse(part));
    }
    for (const wake of waiters.splice(0)) wake();
  });
  const server = serveStdio(endpoint, {
    input,
    output,
    onError: (e) => errors.push(e),
    ...options,
  });

  /** Waits until at least `count` lines were written. */
  async function waitForLines(count: number, timeoutMs = 5000): Promise<unknown[]> {
    const deadline = Date.now() + timeoutMs;
    while (lines.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} lines, got ${lines.length}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 20);
      });
    }
    return lines;
  }

  return { input, output, server, lines, raw, errors, waitForLines };
}

/** One request line. */
export function requestLine(id: number | string, method: string, params?: object): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) })}\n`;
}
