import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client, httpTransport } from '@rondo/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { FIXTURE_MAIN, startGateway, writeConfig, type RunningGateway } from './support.js';

// Issue 26, done-when 4: an upstream that crashes mid-call, one that never answers and one that
// floods notifications; the gateway keeps serving the others, the affected calls get precise
// errors, and its memory stays bounded.

const HOSTILE = fileURLToPath(new URL('./hostileUpstream.mjs', import.meta.url));

let gateway: RunningGateway;
let client: Client;
beforeAll(async () => {
  const config = writeConfig({
    crashy: { command: process.execPath, args: [HOSTILE] },
    silent: { command: process.execPath, args: [HOSTILE], timeoutMs: 1500 },
    flood: { command: process.execPath, args: [HOSTILE] },
    healthy: {
      command: process.execPath,
      args: [FIXTURE_MAIN],
      env: { RONDO_STATE_KEY: 'rondo-gateway-upstream-state-key-0123456789' },
    },
  });
  gateway = await startGateway(config);
  client = new Client({ transport: httpTransport({ url: gateway.url.href }), era: '2026-07-28' });
  await client.connect();
}, scaled(60_000));
afterAll(async () => {
  await client.close();
  await gateway.close();
});

function textOf(result: { content: unknown[] }): string {
  const [first] = result.content as { text?: string }[];
  return first?.text ?? '';
}

async function healthyAnswers(): Promise<void> {
  const result = await client.callTool('healthy_test_simple_text');
  expect(textOf(result)).toContain('This is a simple text response');
}

/** The gateway's resident memory (kB), from /proc. */
function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

async function eventually(check: () => Promise<void>, ms = scaled(20_000)): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (failure) {
      if (Date.now() > deadline) throw failure;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

describe('rondo-gateway with failing upstreams', { timeout: scaled(60_000) }, () => {
  it('fails a call whose upstream crashes with a precise error, serves the others, and restarts it', async () => {
    const crash = client.callTool('crashy_crash');
    const [crashed] = await Promise.allSettled([crash, healthyAnswers()]);
    expect(crashed).toMatchObject({
      status: 'rejected',
      reason: { code: -32603, message: 'Upstream "crashy" exited during the call' },
    });
    // Meanwhile its tools say why they cannot run; then the restarted upstream answers again.
    await healthyAnswers();
    await eventually(async () => {
      expect(textOf(await client.callTool('crashy_ok'))).toMatch(/^ok from \d+$/);
    });
  });

  it('says the upstream is unavailable while it is down', async () => {
    await client.callTool('crashy_crash').catch(() => undefined);
    const failure = await client.callTool('crashy_ok').then(
      () => undefined,
      (error: unknown) => error,
    );
    // Either the restart already happened (the call succeeded), or the error names the upstream.
    if (failure !== undefined) {
      expect(failure).toMatchObject({
        message: expect.stringMatching(/Upstream "crashy" (is unavailable|exited)/),
      });
    }
    await healthyAnswers();
  });

  it('fails a call the upstream never answers at its deadline, and the upstream serves the next', async () => {
    await expect(client.callTool('silent_hang')).rejects.toMatchObject({
      code: -32603,
      message: 'Upstream "silent" did not answer tools/call within 1500 ms',
    });
    await healthyAnswers();
    expect(textOf(await client.callTool('silent_ok'))).toMatch(/^ok from/);
  });

  it('survives an upstream flooding notifications with bounded memory', async () => {
    const before = rssKb(gateway.process.pid!);
    const progress: number[] = [];
    const flooded = client.callTool(
      'flood_flood',
      {},
      { onProgress: (u) => progress.push(u.progress) },
    );
    await healthyAnswers();
    expect(textOf(await flooded)).toBe('flooded');
    await healthyAnswers();
    const after = rssKb(gateway.process.pid!);
    // 20,000 log messages of 200 bytes, 5,000 list changes, 5,000 resource updates and 20,000
    // progress notifications went through; what the gateway holds grows by far less than that
    // traffic, and the list changes were coalesced.
    expect(after - before).toBeLessThan(150_000);
    expect(progress.length).toBeGreaterThan(0);
  });
});
