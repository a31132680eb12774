import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from '@rondo/core';
import {
  ErrorCode,
  formElicitation,
  inputRequest,
  inputRequired,
  text,
  type JsonObject,
} from '@rondo/protocol';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { proxy } from '../src/index.js';
import {
  clientOf,
  closeAfterTest,
  endpointOf,
  gateway,
  memoryUpstream,
  passingGateway,
} from './support.js';
import { scaled } from '@rondo/test-support/timeFactor';

// docs/limits.md, the gateway section: the bounds of an upstream's connection (the reconnection
// backoff and the deadline of one attempt, with real child processes on stdio) and of a call's
// wait for the upstream's next move (`timeoutMs`), each hit, with the error a caller gets.

const scratch = mkdtempSync(join(tmpdir(), 'rondo-proxy-limits-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The lines of a file the upstream processes append to ('' while none has). */
function linesOf(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

/** True while the process `pid` exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** An upstream whose `hang` tool never answers until cancelled (it reports that), in `eras`. */
function hangingUpstream(eras: 'legacy' | 'modern', cancelled: string[]) {
  const server = createServer({ name: 'hanging', version: '1.0.0' }).tool(
    'hang',
    {},
    (_args, ctx) =>
      new Promise((resolve) => {
        ctx.signal.addEventListener('abort', () => {
          cancelled.push(eras);
          resolve(text('cancelled'));
        });
      }),
  );
  return endpointOf(server, eras);
}

describe('the upstream connection', () => {
  it('retries a failing upstream first after initialDelayMs, doubling the wait up to maxDelayMs', async () => {
    const starts = join(scratch, 'starts');
    // Each start notes its time (ms), says why on stderr and exits, as a misconfigured server does.
    const script = `date +%s%3N >> '${starts}'; echo 'no config file' >&2; exit 3`;
    const provider = proxy(
      { command: 'sh', args: ['-c', script] },
      { name: 'flaky', initialDelayMs: 60, maxDelayMs: 120 },
    );
    closeAfterTest(() => provider.close());
    await expect(provider.upstream.start()).rejects.toMatchObject({
      code: ErrorCode.InternalError,
      message: expect.stringMatching(/^Upstream "flaky" could not be reached: /),
    });
    // Meanwhile a call fails at once, saying why and when the next attempt is.
    await expect(provider.upstream.client()).rejects.toMatchObject({
      code: ErrorCode.InternalError,
      message: expect.stringMatching(
        /^Upstream "flaky" is unavailable \(.+\); next attempt in 1 s$/,
      ),
    });
    await vi.waitFor(() => expect(linesOf(starts).length).toBeGreaterThanOrEqual(6), {
      timeout: scaled(10_000),
      interval: 20,
    });
    const times = linesOf(starts).map(Number);
    const gaps = times.slice(1).map((time, index) => time - times[index]!);
    // 60, then 120 each (the doubling stops at the ceiling). Without the options the waits would
    // be 500 ms, 1 s, 2 s...; uncapped they would reach 480 ms by the fourth.
    expect(gaps[0]).toBeGreaterThanOrEqual(55);
    for (const gap of gaps.slice(1, 5)) expect(gap).toBeGreaterThanOrEqual(115);
    for (const gap of gaps.slice(0, 5)) expect(gap).toBeLessThan(scaled(400));
  });

  it("tells callers why an upstream failed without its stderr, which the operator's reason keeps", async () => {
    const script = `echo 'no config file; token=stderr-secret' >&2; exit 3`;
    const provider = proxy(
      { command: 'sh', args: ['-c', script] },
      { name: 'leaky', initialDelayMs: 60_000 },
    );
    closeAfterTest(() => provider.close());
    const failure = (await provider.upstream.start().catch((e: unknown) => e)) as Error;
    // Why, to a caller: the exit, or the write the exit broke; never what the process wrote to
    // stderr (it may name secrets).
    expect(failure).toMatchObject({
      code: ErrorCode.InternalError,
      message: expect.stringMatching(/^Upstream "leaky" could not be reached: .+/),
    });
    const down = (await provider.upstream.client().catch((e: unknown) => e)) as Error;
    expect(down.message).toMatch(/^Upstream "leaky" is unavailable \(.+\); next attempt in 60 s$/);
    for (const message of [failure.message, down.message]) {
      expect(message).not.toContain('stderr-secret');
    }
    expect(provider.upstream.downReason).toMatch(/stderr: no config file; token=stderr-secret$/);
  });

  it('gives up a connection attempt at connectTimeoutMs and ends the process it started', async () => {
    const pidFile = join(scratch, 'silent.pid');
    // A process that speaks no MCP at all: it never answers `server/discover`.
    const script = `echo $$ > '${pidFile}'; exec sleep 30`;
    // Long enough for a loaded machine to start `sh` (then `server/discover` is what goes unanswered).
    const timeoutMs = scaled(150);
    const provider = proxy(
      { command: 'sh', args: ['-c', script] },
      { name: 'silent', connectTimeoutMs: timeoutMs, initialDelayMs: 60_000 },
    );
    closeAfterTest(() => provider.close());
    const started = Date.now();
    await expect(provider.upstream.start()).rejects.toMatchObject({
      code: ErrorCode.InternalError,
      message: `Upstream "silent" could not be reached: server/discover: no answer within ${timeoutMs} ms`,
    });
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(timeoutMs - 10);
    expect(waited).toBeLessThan(timeoutMs + scaled(5_000));
    await expect(provider.upstream.client()).rejects.toMatchObject({
      message: `Upstream "silent" is unavailable (server/discover: no answer within ${timeoutMs} ms); next attempt in 60 s`,
    });
    // The attempt's process does not outlive it: one attempt, one process, ended.
    const pid = Number(linesOf(pidFile)[0]);
    expect(pid).toBeGreaterThan(0);
    await vi.waitFor(() => expect(alive(pid)).toBe(false), {
      timeout: scaled(5_000),
      interval: 20,
    });
  });
});

describe('a connection attempt whose transport never starts', () => {
  it('ends at twice connectTimeoutMs, and the provider still closes', async () => {
    let closed = 0;
    const provider = proxy(
      {
        label: 'stuck',
        transport: () => ({
          endpointKey: 'stuck:1',
          start: () => new Promise<void>(() => undefined),
          send: async () => undefined,
          close: async () => void (closed += 1),
        }),
      },
      { name: 'stuck', connectTimeoutMs: 100, initialDelayMs: 60_000 },
    );
    const started = Date.now();
    await expect(provider.upstream.start()).rejects.toMatchObject({
      code: ErrorCode.InternalError,
      message:
        'Upstream "stuck" could not be reached: no connection within 200 ms (twice connectTimeoutMs)',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(closed).toBe(1);
    await provider.close();
  });
});

describe("the upstream's next move", () => {
  it('fails a translated call at timeoutMs and cancels it upstream', async () => {
    const cancelled: string[] = [];
    const { endpoint } = gateway(memoryUpstream(hangingUpstream('legacy', cancelled)), {
      name: 'slow',
      timeoutMs: 80,
    });
    const client = await clientOf(endpoint, '2026-07-28');
    await expect(client.callTool('hang')).rejects.toMatchObject({
      code: ErrorCode.InternalError,
      message: 'Upstream "slow" did not answer tools/call within 80 ms',
    });
    await vi.waitFor(() => expect(cancelled).toEqual(['legacy']));
    await client.close();
  });

  it('fails a passed-through call at timeoutMs with the same error, and cancels it upstream', async () => {
    const cancelled: string[] = [];
    const { endpoint, passed } = passingGateway(
      memoryUpstream(hangingUpstream('modern', cancelled)),
      { name: 'slow', timeoutMs: 80 },
    );
    const client = await clientOf(endpoint, '2026-07-28');
    await expect(client.callTool('hang')).rejects.toMatchObject({
      code: ErrorCode.InternalError,
      message: 'Upstream "slow" did not answer tools/call within 80 ms',
    });
    expect(passed).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(cancelled).toEqual(['modern']));
    await client.close();
  });
});

describe('what one call may ask', () => {
  it('refuses the questions of a call past 16 not yet passed to its caller', async () => {
    const form: JsonObject = { type: 'object', properties: { n: { type: 'string' } } };
    // A modern upstream whose round asks 20 questions at once.
    const upstream = createServer({ name: 'curious', version: '1.0.0' }).tool(
      'ask',
      {},
      (_args, ctx) => {
        const answered = Object.keys(ctx.inputResponses).length;
        if (answered > 0) return text(`answered ${answered}`);
        const asks = Array.from({ length: 20 }, (_, n) =>
          inputRequest(`q${n}`, formElicitation('?', form)),
        );
        return inputRequired(asks);
      },
    );
    const { endpoint } = gateway(memoryUpstream(endpointOf(upstream, 'modern')), {
      name: 'curious',
    });
    let asked = 0;
    const client = await clientOf(endpoint, '2025-11-25', {
      elicitation: () => {
        asked += 1;
        return { action: 'accept', content: { n: 'yes' } };
      },
    });
    await expect(client.callTool('ask')).rejects.toMatchObject({
      code: ErrorCode.InternalError,
      message: 'At most 16 open questions per call',
    });
    expect(asked).toBe(16);
    await client.close();
  });
});

/**
 * A legacy stdio upstream that answers `initialize` (offering tools) and nothing else: its list
 * never comes.
 */
const MUTE_LISTER = `
const { createInterface } = require('node:readline');
createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.method !== 'initialize') return;
  const result = {
    protocolVersion: message.params.protocolVersion,
    capabilities: { tools: {} },
    serverInfo: { name: 'mute-lister', version: '1.0.0' },
  };
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }) + '\\n');
});
`;

describe("the upstream's lists", () => {
  it('gives up a list read at connectTimeoutMs, keeping the list as last read, and says so', async () => {
    const warnings: string[] = [];
    // The same deadline holds the connection (a node child must start within twice of it), so it
    // grows with the machine's load.
    const connectTimeoutMs = scaled(300);
    const provider = proxy(
      { command: process.execPath, args: ['-e', MUTE_LISTER] },
      {
        name: 'mute',
        era: '2025-11-25',
        connectTimeoutMs,
        onWarning: (line) => warnings.push(line),
      },
    );
    closeAfterTest(() => provider.close());
    await provider.upstream.start();
    const started = Date.now();
    expect(await provider.tools()).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(connectTimeoutMs - 10);
    expect(warnings).toEqual([
      `upstream "mute": tools could not be read: tools/list: no answer within ${connectTimeoutMs} ms`,
    ]);
  });
});
