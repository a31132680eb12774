import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { legacyEra } from '@rondo/adapter-2025';
import { modernEra } from '@rondo/adapter-2026';
import { createEndpoint, createServer, type RondoServer } from '@rondo/core';
import { createPrologProvider, type PrologProvider } from '@rondo/logtalk-bridge';
import { callTimeout } from '@rondo/policies';
import { MemoryConnection } from '@rondo/test-support/memoryConnection';

// Issue 28: a per-tool timeout cancels the Prolog goal. The only worker runs `loop` (repeat,
// fail) until the timeout interrupts it; the client gets the timeout error, and the same worker
// (not a replacement) answers the next call.

const POOL = join(import.meta.dirname, '../../packages/logtalk-bridge/test/fixtures/pool.pl');
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'timeout-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

describe('callTimeout on a Prolog tool', { timeout: scaled(60_000) }, () => {
  let server: RondoServer;
  let connection: MemoryConnection;
  let provider: PrologProvider;
  beforeAll(async () => {
    provider = await createPrologProvider({ files: [POOL], workers: 1, onLog: () => undefined });
    server = createServer({ name: 'pool', version: '1.0.0', log: () => undefined })
      .use(callTimeout({ ms: 0, tools: { loop: 300 } }))
      .provider(provider);
    connection = new MemoryConnection(
      createEndpoint(server, { modern: modernEra(), legacy: legacyEra() }),
    );
  });
  afterAll(async () => server?.close());

  it('interrupts the looping goal, answers the timeout, and the worker serves on', async () => {
    const [worker] = provider.workerIds();
    const answer = await connection.request('tools/call', {
      name: 'loop',
      arguments: {},
      _meta: META,
    });
    expect(answer).toMatchObject({
      error: {
        code: -32603,
        message: 'Timed out: tool "loop" did not finish within 300 ms',
        data: { timeoutMs: 300 },
      },
    });
    const quick = await connection.request('tools/call', {
      name: 'quick',
      arguments: {},
      _meta: META,
    });
    expect(quick).toMatchObject({ result: { content: [{ type: 'text', text: 'quick' }] } });
    // The same worker: the goal was interrupted, not the process replaced.
    expect(provider.workerIds()).toEqual([worker]);
  });
});
