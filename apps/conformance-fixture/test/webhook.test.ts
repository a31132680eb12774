import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, generateWebhookSecret, httpTransport, verifyWebhookDelivery } from '@rondo/client';
import {
  httpsReceiver,
  selfSignedCertificate,
  type HttpsReceiver,
  type SelfSigned,
} from '@rondo/test-support/httpsReceiver';
import { timeFactorOf } from '@rondo/test-support/timeFactor';
import { parseFixtureArgs, UsageError } from '../src/cliArgs.js';

// Issue 42 (for outside checkers): the fixture CLI delivers `test_event` by webhook to an https
// callback on 127.0.0.1 when RONDO_EVENTS_ALLOW_PRIVATE_CALLBACKS=1, trusting the receiver's
// self-signed certificate through NODE_EXTRA_CA_CERTS; RONDO_FIXTURE_TOKENS gives requests the
// principals webhook subscriptions need.

const CLI = fileURLToPath(new URL('../dist/main.js', import.meta.url));

let certificate: SelfSigned;
let receiver: HttpsReceiver;
let fixture: ChildProcess;
let url: string;

beforeAll(async () => {
  certificate = selfSignedCertificate();
  receiver = await httpsReceiver(certificate);
  fixture = spawn(process.execPath, [CLI, '--transport', 'http', '--port', '0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      RONDO_FIXTURE_TOKENS: 'alice-token:alice,bob-token:bob',
      RONDO_EVENTS_ALLOW_PRIVATE_CALLBACKS: '1',
      NODE_EXTRA_CA_CERTS: certificate.certFile,
    },
  });
  url = await new Promise<string>((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(
      () => reject(new Error(`the fixture did not start:\n${stderr}`)),
      15_000 * timeFactorOf(),
    );
    fixture.stderr!.on('data', (chunk: Buffer) => {
      stderr += String(chunk);
      const found = /serving http at (\S+)/.exec(stderr);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    fixture.once('exit', (code) =>
      reject(new Error(`the fixture exited with ${code}:\n${stderr}`)),
    );
  });
});

afterAll(async () => {
  if (fixture && fixture.exitCode === null) {
    const exited = new Promise((resolve) => fixture.once('exit', resolve));
    fixture.kill('SIGTERM');
    await exited;
  }
  await receiver?.close();
  certificate?.remove();
});

async function connected(token: string): Promise<Client> {
  const client = new Client({
    era: '2026-07-28',
    transport: httpTransport({ url, headers: { authorization: `Bearer ${token}` } }),
  });
  await client.connect();
  return client;
}

describe('the fixture’s test_event by webhook', () => {
  it('delivers emit_test_event’s occurrence, signed, to a subscribed https callback', async () => {
    const alice = await connected('alice-token');
    try {
      const secret = generateWebhookSecret();
      const callback = `${receiver.origin}/fixture`;
      const subscription = await alice.serverEvents.subscribe({
        name: 'test_event',
        url: callback,
        secret,
      });
      const called = await alice.callTool('emit_test_event', { message: 'by webhook' });
      const eventId = (called.content[0] as { text: string }).text;
      const [delivery] = await receiver.waitFor((request) => request.path === '/fixture');
      expect(verifyWebhookDelivery(secret, delivery!.headers, delivery!.body)).toMatchObject({
        ok: true,
        delivery: {
          subscriptionId: subscription.id,
          occurrence: { eventId, name: 'test_event', data: { message: 'by webhook' } },
        },
      });
      await alice.serverEvents.unsubscribe({ name: 'test_event', url: callback });
    } finally {
      await alice.close();
    }
  });

  it('refuses a request without one of the tokens (401)', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} }),
    });
    expect(response.status).toBe(401);
  });
});

describe('RONDO_FIXTURE_TOKENS', () => {
  it('reads token:principal entries and refuses anything else as a usage error', () => {
    const env = { RONDO_FIXTURE_TOKENS: 'a:alice, b:bob,c:alice' };
    expect([...parseFixtureArgs(['--transport', 'http'], env).tokens!]).toEqual([
      ['a', 'alice'],
      ['b', 'bob'],
      ['c', 'alice'],
    ]);
    for (const bad of ['a', ':alice', 'a:', 'a:alice,a:bob'])
      expect(() => parseFixtureArgs([], { RONDO_FIXTURE_TOKENS: bad }), bad).toThrow(UsageError);
    expect(parseFixtureArgs([], {}).tokens).toBeUndefined();
    expect(
      parseFixtureArgs([], { RONDO_EVENTS_ALLOW_PRIVATE_CALLBACKS: '1' }).allowPrivateCallbacks,
    ).toBe(true);
    expect(parseFixtureArgs([], {}).allowPrivateCallbacks).toBeUndefined();
  });
});
