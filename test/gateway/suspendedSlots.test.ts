import type { ChildProcess } from 'node:child_process';
import { Client, httpTransport } from '@rondo/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '@rondo/test-support/timeFactor';
import { startAskingUpstream, startGateway, writeConfig, type RunningGateway } from './support.js';

// Issue 38, done-when 2: calls waiting for their caller's answers hold no concurrency slot of
// their upstream, and one client may hold at most `maxSuspendedPerClient` (100) of them. Two
// anonymous clients told apart by address (the gateway reads X-Forwarded-For, as behind a proxy).

let upstream: ChildProcess;
let gateway: RunningGateway;
const clients: Client[] = [];

function clientFrom(address: string, elicitation: ClientElicitation): Client {
  const client = new Client({
    era: '2026-07-28',
    transport: httpTransport({
      url: gateway.url.href,
      headers: { 'X-Forwarded-For': address },
    }),
    handlers: { elicitation },
  });
  clients.push(client);
  return client;
}

type ClientElicitation = NonNullable<
  ConstructorParameters<typeof Client>[0]['handlers']
>['elicitation'];

beforeAll(async () => {
  const http = await startAskingUpstream();
  upstream = http.child;
  gateway = await startGateway(writeConfig({ asking: { url: http.url } }), [
    '--client-address-header',
    'x-forwarded-for',
  ]);
}, scaled(60_000));

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await gateway?.close();
  upstream?.kill('SIGTERM');
});

describe('suspended calls and the upstream slots', { timeout: scaled(120_000) }, () => {
  it("100 unanswered calls of one client leave another's answered; the 101st is busy", async () => {
    const asked = new Set<string>();
    // This client never answers: each of its calls stays suspended in the gateway.
    const silent = clientFrom('10.0.0.1', (params) => {
      asked.add(String((params as { message?: unknown }).message).replace(/^Q\d about /, ''));
      return new Promise(() => {});
    });
    const other = clientFrom('10.0.0.2', () => ({
      action: 'accept',
      content: { answer: 'yes' },
    }));
    await Promise.all([silent.connect(), other.connect()]);
    for (let tries = 0; (await other.listTools()).tools.length < 2; tries += 1) {
      if (tries > 150) throw new Error('the upstream did not connect');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // The other client's own upstream session is open before the flood (its isolation's).
    expect((await other.callTool('asking_hello')).content[0]).toMatchObject({ text: 'hello' });

    for (let i = 0; i < 100; i += 1) {
      void silent.callTool('asking_ask_twice', { secret: `call-${i}` }).catch(() => undefined);
    }
    for (let tries = 0; asked.size < 100; tries += 1) {
      if (tries > 600) throw new Error(`only ${asked.size} calls were asked`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    // The default maxConcurrent is 16: had the 100 kept their slots, these would wait for them.
    const started = Date.now();
    expect((await other.callTool('asking_hello')).content[0]).toMatchObject({ text: 'hello' });
    // 1 s on an idle machine (RONDO_TIME_FACTOR=1 holds it exactly), scaled on a busy one.
    expect(Date.now() - started).toBeLessThan(scaled(1000));
    const answered = await other.callTool('asking_ask_twice', { secret: 'other' });
    expect(answered.content[0]).toMatchObject({ text: 'other: yes + yes' });

    await expect(silent.callTool('asking_ask_twice', { secret: 'call-101' })).rejects.toMatchObject(
      {
        code: -32603,
        message:
          'Upstream "asking" is busy: this client already has 100 calls waiting for its answers (maxSuspendedPerClient); answer or cancel them first',
      },
    );
    expect(asked.has('call-101')).toBe(false);
  });
});
