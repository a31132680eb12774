import { Client, httpTransport } from '@rondo/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { EVERYTHING_MAIN, startGateway, writeConfig, type RunningGateway } from './support.js';

// Issue 38, done-when 4 (roots): the official server-everything keeps the roots its client gave
// in its session and serves them from `get-roots-list`. Through rondo-gateway, with an entry's
// default isolation (a legacy upstream: one upstream session per caller), two callers with
// different roots each see their own, however their calls alternate. The callers are anonymous,
// told apart by address (the gateway reads X-Forwarded-For, as behind a proxy).

let gateway: RunningGateway;
const callers: Client[] = [];

function callerWithRoot(address: string, uri: string): Client {
  const client = new Client({
    era: '2026-07-28',
    transport: httpTransport({ url: gateway.url.href, headers: { 'X-Forwarded-For': address } }),
    handlers: { roots: () => [{ uri, name: `root of ${address}` }] },
  });
  callers.push(client);
  return client;
}

beforeAll(async () => {
  gateway = await startGateway(
    writeConfig({
      everything: { command: process.execPath, args: [EVERYTHING_MAIN] },
      shared: { command: process.execPath, args: [EVERYTHING_MAIN], isolation: 'shared' },
    }),
    ['--client-address-header', 'x-forwarded-for'],
  );
}, scaled(60_000));

afterAll(async () => {
  await Promise.all(callers.map((client) => client.close().catch(() => undefined)));
  await gateway?.close();
});

function textOf(result: { content: unknown[] }): string {
  return (result.content[0] as { text?: string } | undefined)?.text ?? '';
}

describe('server-everything behind rondo-gateway', { timeout: scaled(120_000) }, () => {
  it('serves each caller the roots it gave, alternately three times', async () => {
    const first = callerWithRoot('10.0.1.1', 'file:///home/first');
    const second = callerWithRoot('10.0.1.2', 'file:///home/second');
    await Promise.all([first.connect(), second.connect()]);
    const toolNames = async (): Promise<string[]> =>
      (await first.listTools()).tools.map((tool) => tool.name);
    for (let tries = 0; !(await toolNames()).includes('everything_get-roots-list'); tries += 1) {
      if (tries > 150) throw new Error('server-everything did not connect');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    for (let round = 0; round < 3; round += 1) {
      const seenByFirst = textOf(await first.callTool('everything_get-roots-list'));
      expect(seenByFirst).toContain('file:///home/first');
      expect(seenByFirst).not.toContain('file:///home/second');
      const seenBySecond = textOf(await second.callTool('everything_get-roots-list'));
      expect(seenBySecond).toContain('file:///home/second');
      expect(seenBySecond).not.toContain('file:///home/first');
    }
  });

  it('with isolation "shared", serves the first caller\'s roots to the next (why it is not the default)', async () => {
    const first = callerWithRoot('10.0.2.1', 'file:///home/first');
    const second = callerWithRoot('10.0.2.2', 'file:///home/second');
    await Promise.all([first.connect(), second.connect()]);
    expect(textOf(await first.callTool('shared_get-roots-list'))).toContain('file:///home/first');
    expect(textOf(await second.callTool('shared_get-roots-list'))).toContain('file:///home/first');
  });
});
