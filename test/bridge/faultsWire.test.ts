import { execFileSync, spawnSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../stdio/support/wire.js';
import { scaled } from '@rondo/test-support/timeFactor';
import { requireBuiltHost, bridgeFixture } from './support/paths.js';
import { hostProlog, type HostedProlog } from './support/prologHost.js';
import { RawHost } from './support/rawHost.js';
import { validatorFor, type WireClient } from './support/wireClient.js';

// Issue 7, done-when 3, seen from the wire: each fault fails only its own call with a clear
// error, in both eras, and the next call succeeds.

// The call deadline: short enough that the endless loop ends soon, long enough (scaled with the
// machine's load) that an ordinary call on a busy machine does not hit it.
const deadlineMs = scaled(1500);
let host: HostedProlog;
beforeAll(async () => {
  host = await hostProlog([bridgeFixture('vocab.pl')], { workers: 1, timeoutMs: deadlineMs });
});
afterEach(() => host.checkClients());
afterAll(() => host.close());

/** The swipl processes started by this test process (the one host's workers). */
const workerPids = (): number[] =>
  execFileSync('pgrep', ['-P', String(process.pid), 'swipl'])
    .toString()
    .trim()
    .split('\n')
    .filter(Boolean)
    .map(Number);

/** Calls `text` until a replacement worker answers it (the pool restarts in the background). */
async function nextCallSucceeds(client: WireClient): Promise<void> {
  const result = await client.call('tools/call', { name: 'text', arguments: {} });
  expect(result).toMatchObject({ content: [{ type: 'text', text: 'plain text' }] });
  expect(result.isError).toBeUndefined();
}

async function failedCall(client: WireClient, name: string, during?: () => void) {
  const record = client.send('tools/call', { name, arguments: {} });
  if (during) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    during();
  }
  const response = (await record.ended) as { result: Record<string, unknown> };
  expect(response.result.isError).toBe(true);
  return textOf(response.result);
}

const eras = [
  ['modern', () => host.modern()],
  ['legacy', () => host.legacy('2025-11-25')],
] as const;

describe.each(eras)('faults on the %s wire', { timeout: scaled(30_000) }, (_era, open) => {
  it('answers a worker killed with SIGKILL mid-call with a tool error, then serves the next call', async () => {
    const client = await open();
    const text = await failedCall(client, 'loop', () => {
      for (const pid of workerPids()) process.kill(pid, 'SIGKILL');
    });
    expect(text).toMatch(/Prolog worker \d+ killed by SIGKILL during the call; it was replaced/);
    await nextCallSucceeds(client);
  });

  it('ends an endless loop at the deadline with a tool error, then serves the next call', async () => {
    const client = await open();
    expect(await failedCall(client, 'loop')).toContain(`ran past its deadline of ${deadlineMs} ms`);
    await nextCallSucceeds(client);
  });

  it('answers garbage on the protocol channel with a tool error, then serves the next call', async () => {
    const client = await open();
    expect(await failedCall(client, 'garbage')).toMatch(
      /wrote non-protocol output "this is not JSON" on the protocol channel/,
    );
    await nextCallSucceeds(client);
  });
});

describe('faults of the rondo-logtalk CLI over stdio', { timeout: scaled(30_000) }, () => {
  it('keeps user_output writes off stdout: they reach stderr, tagged with the worker', async () => {
    const raw = new RawHost([bridgeFixture('vocab.pl')]);
    try {
      await raw.request(1, 'initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'raw', version: '1' },
      });
      raw.notify('notifications/initialized');
      const noisy = await raw.request(2, 'tools/call', { name: 'noisy', arguments: {} });
      expect(noisy.result).toEqual({ content: [{ type: 'text', text: 'done' }] });
      const next = await raw.request(3, 'tools/call', { name: 'text', arguments: {} });
      expect(next.result).toEqual({ content: [{ type: 'text', text: 'plain text' }] });
      expect(await raw.end()).toBe(0);
      // Every stdout line is a JSON-RPC message of the session, valid for its revision.
      expect(raw.messages.map((m) => m.id)).toEqual([1, 2, 3]);
      expect(validatorFor('2025-11-25')?.problems(raw.messages, raw.sent) ?? []).toEqual([]);
      expect(raw.stderr).toMatch(/\[prolog#1 stderr\] printed to user_output/);
      expect(raw.stderr).toMatch(/\[prolog#1 stderr\] and again/);
    } finally {
      raw.kill();
    }
  });

  it('exits 1 naming file, line and message when a file fails to load, with nothing on stdout', () => {
    const broken = bridgeFixture('broken.pl');
    const run = spawnSync(process.execPath, [requireBuiltHost(), '--workers', '1', broken], {
      encoding: 'utf8',
      timeout: scaled(20_000),
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    // Once, with its column: the worker does not print it a second time.
    expect(run.stderr.trim().split('\n')).toEqual([
      `rondo-logtalk: ${broken}:4:16: Syntax error: Operator expected`,
    ]);
  });

  it('exits 2 with the usage on a command-line mistake, and documents every option in --help', () => {
    const wrong = spawnSync(process.execPath, [requireBuiltHost(), '--transport', 'smoke'], {
      encoding: 'utf8',
    });
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(/unknown transport "smoke"[\s\S]*usage: rondo-logtalk/);
    const help = spawnSync(process.execPath, [requireBuiltHost(), '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    for (const option of ['--transport', '--host', '--port', '--object', '--workers', '--timeout'])
      expect(help.stdout).toContain(option);
  });
});
