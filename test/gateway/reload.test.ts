import { writeFileSync } from 'node:fs';
import { Client, httpTransport } from '@rondo/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import {
  EVERYTHING_MAIN,
  FIXTURE_MAIN,
  startGateway,
  writeConfig,
  type RunningGateway,
} from './support.js';

// Issue 40, done-when 2: SIGHUP after the configuration changed applies it without a restart,
// while a long call started before it completes; an invalid configuration keeps the old one.

const everything = { command: process.execPath, args: [EVERYTHING_MAIN] };
const fixture = {
  command: process.execPath,
  args: [FIXTURE_MAIN],
  env: { RONDO_STATE_KEY: 'rondo-gateway-upstream-state-key-0123456789' },
};
const LONG = 'everything_trigger-long-running-operation';

let config: string;
let gateway: RunningGateway;
let client: Client;
beforeAll(async () => {
  config = writeConfig({ everything });
  gateway = await startGateway(config);
  client = new Client({ transport: httpTransport({ url: gateway.url.href }), era: '2026-07-28' });
  await client.connect();
}, scaled(60_000));
afterAll(async () => {
  await client?.close();
  await gateway?.close();
});

const rewrite = (mcpServers: Record<string, unknown>) =>
  writeFileSync(config, JSON.stringify({ mcpServers }, null, 2));
const toolNames = async () => (await client.listAllTools()).map((tool) => tool.name);

/** Starts a call that takes `seconds`, and tells whether it has ended yet. */
function longCall(seconds: number) {
  let ended = false;
  const result = client
    .callTool(LONG, { duration: seconds, steps: 2 }, { timeoutMs: 120_000 })
    .finally(() => (ended = true));
  return { result, ended: () => ended };
}

describe('rondo-gateway reloading its configuration', { timeout: scaled(90_000) }, () => {
  it('adds an entry on SIGHUP while a call started before it runs to its end', async () => {
    expect(await toolNames()).toContain(LONG);
    const call = longCall(10);
    rewrite({ everything, fixture });
    gateway.process.kill('SIGHUP');
    await expect.poll(toolNames, { timeout: 30_000 }).toContain('fixture_test_simple_text');
    expect(call.ended()).toBe(false);
    expect(JSON.stringify((await call.result).content)).toMatch(/completed/i);
    expect(gateway.stderr()).toMatch(/reloaded .*servers\.json \(SIGHUP\): added fixture\n/);
    // The unchanged entry kept its connection: it still answers.
    const echoed = await client.callTool('everything_echo', { message: 'still here' });
    expect(JSON.stringify(echoed.content)).toContain('still here');
  });

  it('removes an entry, letting its call in flight finish', async () => {
    const call = longCall(5);
    await new Promise((resolve) => setTimeout(resolve, 300));
    rewrite({ fixture });
    gateway.process.kill('SIGHUP');
    await expect.poll(toolNames, { timeout: 30_000 }).not.toContain(LONG);
    expect(JSON.stringify((await call.result).content)).toMatch(/completed/i);
    expect(gateway.stderr()).toMatch(/\(SIGHUP\): removed everything\n/);
  });

  it('refuses an invalid configuration with its error and keeps serving the old one', async () => {
    rewrite({ fixture: { ...fixture, exlude: ['test_simple_text'] } });
    gateway.process.kill('SIGHUP');
    await expect
      .poll(() => gateway.stderr(), { timeout: 20_000 })
      .toMatch(
        /reload \(SIGHUP\) refused: .*mcpServers\.fixture: unknown key "exlude" \(did you mean "exclude"\?\); still serving the previous configuration/,
      );
    expect(await toolNames()).toContain('fixture_test_simple_text');
    const result = await client.callTool('fixture_test_simple_text');
    expect(result.content[0]).toMatchObject({ type: 'text' });
    expect(gateway.process.exitCode).toBeNull();
  });

  it('refuses an entry acting for each caller when it verifies no caller token, as at start', async () => {
    const acting = {
      url: 'http://127.0.0.1:1/mcp',
      oauth: {
        clientId: 'gw',
        clientSecret: 's',
        issuer: 'http://127.0.0.1:1',
        tokenExchange: true,
      },
    };
    rewrite({ fixture, acting });
    gateway.process.kill('SIGHUP');
    await expect
      .poll(() => gateway.stderr(), { timeout: 20_000 })
      .toMatch(
        /reload \(SIGHUP\) refused: entry "acting": oauth\.tokenExchange exchanges each caller's token: .*--auth-\*.*; still serving the previous configuration/,
      );
    expect(await toolNames()).toContain('fixture_test_simple_text');
    expect(gateway.process.exitCode).toBeNull();
  });
});

describe('rondo-gateway --watch', { timeout: scaled(60_000) }, () => {
  it('reloads when the file changes, without a signal', async () => {
    const watched = writeConfig({ fixture });
    const second = await startGateway(watched, ['--watch']);
    const other = new Client({
      transport: httpTransport({ url: second.url.href }),
      era: '2025-11-25',
    });
    try {
      await other.connect();
      writeFileSync(watched, JSON.stringify({ mcpServers: { fixture, everything } }));
      await expect
        .poll(async () => (await other.listAllTools()).map((tool) => tool.name), {
          timeout: 30_000,
        })
        .toContain('everything_echo');
      expect(second.stderr()).toMatch(/\(the file changed\): added everything/);
    } finally {
      await other.close();
      await second.close();
    }
  });
});
