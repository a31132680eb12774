import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import {
  Client,
  InputRoundsExceededError,
  TooManyPendingRequestsError,
  inMemoryTransport,
} from '@rondo/client';
import { stdioTransport } from '@rondo/client/node';
import { createEndpoint, createServer } from '@rondo/core';
import { formElicitation, inputRequest, inputRequired, text } from '@rondo/protocol';
import { describe, expect, it } from 'vitest';

// The client's own limits (docs/limits.md, "The client"): each is hit here and answered typed.
function endpoint() {
  const server = createServer({ name: 'limits', version: '1.0.0' })
    .tool('wait', {}, async (_args, ctx) => {
      await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
      return text('stopped');
    })
    .tool('ask_forever', {}, () =>
      inputRequired([
        inputRequest('again', formElicitation('Again?', { type: 'object', properties: {} })),
      ]),
    );
  return createEndpoint(server, { modern: modernEra(), legacy: legacyEra() });
}

describe('client limits', () => {
  it('maxPendingRequests: a call past the cap fails with TooManyPendingRequestsError, the others go on', async () => {
    const client = new Client({ transport: inMemoryTransport(endpoint()), maxPendingRequests: 2 });
    await client.connect();
    const controller = new AbortController();
    const open = [1, 2].map(() =>
      client.callTool('wait', {}, { signal: controller.signal }).catch(() => 'aborted'),
    );
    await expect(client.callTool('wait')).rejects.toBeInstanceOf(TooManyPendingRequestsError);
    controller.abort();
    expect(await Promise.all(open)).toEqual(['aborted', 'aborted']);
    await client.close();
  });

  it('maxInputRounds: a server that asks for input without end fails the call with InputRoundsExceededError', async () => {
    const client = new Client({
      transport: inMemoryTransport(endpoint()),
      era: '2026-07-28',
      maxInputRounds: 3,
      handlers: { elicitation: () => ({ action: 'accept', content: {} }) },
    });
    await client.connect();
    const error = await client.callTool('ask_forever').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputRoundsExceededError);
    expect((error as InputRoundsExceededError).limit).toBe(3);
    await client.close();
  });

  it('stderrBytes: only the tail of what a server writes to stderr is kept', async () => {
    const script =
      "process.stderr.write('a'.repeat(10000) + 'THE END'); process.stdin.on('data', () => {});";
    const transport = stdioTransport({
      command: process.execPath,
      args: ['-e', script],
      stderrBytes: 100,
    });
    const client = new Client({ transport, era: '2025-11-25', requestTimeoutMs: 1000 });
    await client.connect().catch(() => undefined);
    expect(transport.stderr.length).toBeLessThanOrEqual(100);
    expect(transport.stderr.endsWith('THE END')).toBe(true);
    await client.close();
  });
});
