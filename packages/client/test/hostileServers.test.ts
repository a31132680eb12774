import { fileURLToPath } from 'node:url';
import { Client, ProtocolViolationError, ServerExitedError } from '@rondo/client';
import { stdioTransport, type StdioClientTransport } from '@rondo/client/node';
import { describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';

// Issue 25, done-when 4: a server that misbehaves gives the caller a typed error; the client's
// process stays up (this test process is the client) and serves on; memory stays bounded.
const SERVER = fileURLToPath(new URL('./support/hostileServer.mjs', import.meta.url));

async function connectTo(mode: string, maxLineBytes?: number) {
  const transport: StdioClientTransport = stdioTransport({
    command: process.execPath,
    args: [SERVER, mode],
    ...(maxLineBytes ? { maxLineBytes } : {}),
  });
  const client = new Client({ transport, era: '2025-11-25' });
  const violations: Error[] = [];
  client.on('violation', (error) => violations.push(error));
  await client.connect();
  return { client, transport, violations };
}

function footprint(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

describe('hostile servers', () => {
  it(
    'drops a 100 MB line without a newline, holding at most the frame cap, and keeps serving',
    async () => {
      const { client, violations } = await connectTo('huge-line', 1024 * 1024);
      try {
        const before = footprint();
        let peak = before;
        const sampler = setInterval(() => (peak = Math.max(peak, footprint())), 5);
        const result = await client.callTool('flood', {}, { timeoutMs: 120_000 });
        clearInterval(sampler);
        expect(result.content).toEqual([{ type: 'text', text: 'after the flood' }]);
        expect(violations).toHaveLength(1);
        expect(violations[0]).toBeInstanceOf(ProtocolViolationError);
        expect(violations[0]!.message).toContain('maxFrameBytes');
        // The line was 100 MB; the client never held more than a small part of it.
        expect(peak - before).toBeLessThan(64 * 1024 * 1024);
        await client.ping();
      } finally {
        await client.close();
      }
    },
    scaled(180_000),
  );

  it('refuses an answer nesting 10,000 arrays: the call fails typed, the client serves on', async () => {
    const { client, violations } = await connectTo('deep');
    try {
      const error = await client.callTool('deep').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProtocolViolationError);
      expect((error as Error).message).toContain('maxDepth');
      expect(violations).toHaveLength(1);
      await client.ping();
    } finally {
      await client.close();
    }
  });

  it('reports an answer to an id never sent and still takes the real answer', async () => {
    const { client, violations } = await connectTo('stray-id');
    try {
      const result = await client.callTool('stray');
      expect(result.content).toEqual([{ type: 'text', text: 'the real answer' }]);
      expect(violations).toHaveLength(1);
      expect(violations[0]).toBeInstanceOf(ProtocolViolationError);
      expect(violations[0]!.message).toContain('987654');
    } finally {
      await client.close();
    }
  });

  it('fails a call with ServerExitedError, carrying the exit code and stderr, when the server exits mid-call', async () => {
    const { client, transport } = await connectTo('exit');
    const error = await client.callTool('exit').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServerExitedError);
    expect((error as ServerExitedError).exitCode).toBe(3);
    expect((error as ServerExitedError).stderr).toContain('giving up mid-call');
    expect(transport.stderr).toContain('giving up mid-call');
    await expect(client.ping()).rejects.toBeInstanceOf(ServerExitedError);
    await client.close();
  });
});
