import { spawn, type ChildProcess } from 'node:child_process';
import { Client, generateWebhookSecret, httpTransport, verifyWebhookDelivery } from '@rondo/client';
import {
  httpsReceiver,
  selfSignedCertificate,
  type HttpsReceiver,
  type ReceivedRequest,
  type SelfSigned,
} from '@rondo/test-support/httpsReceiver';
import { scaled } from '@rondo/test-support/timeFactor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJwtAuthServer, untilServing, type JwtAuthServer } from '../support/jwtAuthServer.js';
import { freePort } from '../support/nginx.js';
import { FIXTURE_MAIN, GATEWAY_MAIN, writeConfig } from './support.js';

// Issue 42, done-when 4 (the webhook mode through the gateway): @rondo/client subscribes to the
// conformance fixture's test_event through rondo-gateway over HTTP, authenticated with JWTs of a
// real authorization server (--auth-*), and a real HTTPS receiver on 127.0.0.1 gets each
// occurrence from the gateway, signed with the caller's secret (--webhooks private lets the
// gateway post to loopback; the receiver's self-signed certificate is trusted through
// NODE_EXTRA_CA_CERTS). The upstream never sees the callback or the secret.

let as: JwtAuthServer;
let gateway: ChildProcess;
let gatewayUrl: string;
let certificate: SelfSigned;
let receiver: HttpsReceiver;
let stderr = '';

beforeAll(async () => {
  as = await startJwtAuthServer();
  certificate = selfSignedCertificate();
  receiver = await httpsReceiver(certificate);
  const config = writeConfig({
    fixture: { command: process.execPath, args: [FIXTURE_MAIN] },
  });
  const port = await freePort();
  gatewayUrl = `http://127.0.0.1:${port}/mcp`;
  const args = ['--transport', 'http', '--port', String(port), '--auth-resource', gatewayUrl];
  gateway = spawn(
    process.execPath,
    [GATEWAY_MAIN, ...args, '--wait-upstreams', '--webhooks', 'private', config],
    {
      env: {
        ...process.env,
        RONDO_AUTH_ISSUER: as.issuer,
        RONDO_AUTH_JWKS: as.jwksUrl,
        NODE_EXTRA_CA_CERTS: certificate.certFile,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  gateway.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  await untilServing(gateway);
}, scaled(90_000));

afterAll(async () => {
  gateway?.kill('SIGTERM');
  await receiver?.close();
  certificate?.remove();
  await as?.close();
});

/** A connected modern client of the gateway presenting a token for `subject`. */
async function callerAs(subject: string): Promise<Client> {
  const token = await as.mintToken(subject, gatewayUrl);
  const client = new Client({
    era: '2026-07-28',
    transport: httpTransport({ url: gatewayUrl, headers: { authorization: `Bearer ${token}` } }),
  });
  await client.connect();
  return client;
}

let paths = 0;
/** A callback URL of the receiver of its own, and what arrived there. */
function callback() {
  const path = `/gateway-hook-${(paths += 1)}`;
  const at = (request: ReceivedRequest) => request.path === path;
  return {
    url: `${receiver.origin}${path}`,
    received: () => receiver.received.filter(at),
    waitFor: (count = 1) => receiver.waitFor(at, count),
  };
}

async function emit(client: Client, message: string): Promise<void> {
  const result = await client.callTool('fixture_emit_test_event', { message });
  expect(result.isError ?? false).toBe(false);
}

describe('webhooks through rondo-gateway', { timeout: scaled(90_000) }, () => {
  it('delivers each occurrence, signed with the caller’s secret, until unsubscribed', async () => {
    const alice = await callerAs('alice');
    try {
      const listed = await alice.serverEvents.listAll();
      expect(listed.find((type) => type.name === 'fixture_test_event')?.delivery).toContain(
        'webhook',
      );
      const secret = generateWebhookSecret();
      const hook = callback();
      const control = callback();
      const subscribed = await alice.serverEvents.subscribe({
        name: 'fixture_test_event',
        url: hook.url,
        secret,
      });
      await alice.serverEvents.subscribe({ name: 'fixture_test_event', url: control.url, secret });
      await emit(alice, 'first');
      await emit(alice, 'second');
      const [first, second] = await hook.waitFor(2);
      const verdict = verifyWebhookDelivery(secret, first!.headers, first!.body);
      expect(verdict).toMatchObject({
        ok: true,
        delivery: {
          subscriptionId: subscribed.id,
          occurrence: { name: 'fixture_test_event', data: { message: 'first' } },
        },
      });
      expect(JSON.parse(second!.body)).toMatchObject({ data: { message: 'second' } });
      const tampered = first!.body.replace('first', 'forged');
      expect(verifyWebhookDelivery(secret, first!.headers, tampered).ok).toBe(false);
      // The delivered cursor resumes a poll through the gateway after that occurrence.
      const cursor = JSON.parse(first!.body).cursor as string;
      const polled = await alice.serverEvents.poll({ name: 'fixture_test_event', cursor });
      expect(polled.events.map((event) => event.data.message)).toEqual(['second']);

      await alice.serverEvents.unsubscribe({ name: 'fixture_test_event', url: hook.url });
      await emit(alice, 'third');
      await control.waitFor(3);
      expect(hook.received()).toHaveLength(2);
      expect(stderr).not.toMatch(/whsec_/);
    } finally {
      await alice.close();
    }
  });

  it('refuses a callback that is not https, and a secret that is not a Standard Webhooks one', async () => {
    const bob = await callerAs('bob');
    try {
      const plain = await bob.serverEvents
        .subscribe({
          name: 'fixture_test_event',
          url: 'http://127.0.0.1:9/hook',
          secret: generateWebhookSecret(),
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(plain).toMatchObject({ code: -32602, data: { field: 'delivery.url' } });
      const badSecret = await bob.serverEvents
        .subscribe({ name: 'fixture_test_event', url: callback().url, secret: 'hunter2' })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(badSecret).toMatchObject({ code: -32602, data: { field: 'delivery.secret' } });
    } finally {
      await bob.close();
    }
  });
});
