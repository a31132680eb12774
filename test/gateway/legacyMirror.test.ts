import { Client, httpTransport } from '@rondo/client';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { FIXTURE_MAIN, startGateway, writeConfig, type RunningGateway } from './support.js';

// Issue 40: each caller in its own era by default. rondo-gateway fronts the conformance fixture
// (a Rondo server of both eras, on stdio) with no `era` key: the entry's one process serves the
// catalog and modern callers; the first legacy caller's call starts a second process, in the
// legacy era, where the fixture's tools that ask the client inside a call serve it directly (on
// the modern wire they fail); once no call has used it for `mirrorIdleMs` that process ends, and
// the next legacy call starts it again.

const IDLE_MS = 3000;
let gateway: RunningGateway;

beforeAll(async () => {
  const config = writeConfig({
    fixture: {
      command: process.execPath,
      args: [FIXTURE_MAIN],
      namespace: '',
      mirrorIdleMs: IDLE_MS,
    },
  });
  gateway = await startGateway(config);
}, scaled(60_000));

afterAll(async () => {
  await gateway?.close();
});

/** The upstream processes the gateway runs now (its children). */
function upstreamProcesses(): number {
  try {
    const pids = execFileSync('ps', ['-o', 'pid=', '--ppid', String(gateway.process.pid)], {
      encoding: 'utf8',
    });
    return pids.split(/\s+/).filter(Boolean).length;
  } catch {
    // ps exits 1 when it lists nothing.
    return 0;
  }
}

async function connected(era: '2026-07-28' | '2025-11-25'): Promise<Client> {
  const client = new Client({
    era,
    transport: httpTransport({ url: gateway.url }),
    handlers: {
      elicitation: () => ({
        action: 'accept',
        content: { username: 'ada', email: 'ada@example.com' },
      }),
    },
  });
  await client.connect();
  return client;
}

const textOf = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

describe(
  'rondo-gateway mirroring a dual-era upstream by default',
  { timeout: scaled(60_000) },
  () => {
    it('starts the legacy process on the first legacy call only and ends it when idle', async () => {
      expect(upstreamProcesses()).toBe(1);
      const modern = await connected('2026-07-28');
      const legacy = await connected('2025-11-25');
      try {
        expect(textOf(await modern.callTool('test_simple_text'))).toContain('simple text');
        await legacy.listTools();
        expect(upstreamProcesses()).toBe(1);

        const asked = await legacy.callTool('test_elicitation', { message: 'Who are you?' });
        expect(textOf(asked)).toBe(
          'User response: action=accept, content={"username":"ada","email":"ada@example.com"}',
        );
        expect(upstreamProcesses()).toBe(2);
        // Modern callers keep the first process meanwhile.
        expect(textOf(await modern.callTool('test_simple_text'))).toContain('simple text');

        await expect.poll(upstreamProcesses).toBe(1);
        const again = await legacy.callTool('test_elicitation', { message: 'Again?' });
        expect(textOf(again)).toContain('action=accept');
        expect(upstreamProcesses()).toBe(2);
      } finally {
        await Promise.all([modern.close(), legacy.close()]);
      }
    });
  },
);
