import { generateWebhookSecret, verifyWebhookDelivery } from '@rondo/client';
import {
  httpsReceiver,
  selfSignedCertificate,
  type HttpsReceiver,
  type SelfSigned,
} from '@rondo/test-support/httpsReceiver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CallbackRefusedError,
  checkWebhookDelivery,
  postSignedDelivery,
  type SignedDelivery,
} from '../src/index.js';

// The delivery primitive a relaying server (the gateway) shares with the extension's own
// deliverer: one signed POST to a real HTTPS receiver on 127.0.0.1, and what its answer means.

let certificate: SelfSigned;
let receiver: HttpsReceiver;

beforeAll(async () => {
  certificate = selfSignedCertificate();
  receiver = await httpsReceiver(certificate);
});

afterAll(async () => {
  await receiver?.close();
  certificate?.remove();
});

function delivery(path: string, secret: string): SignedDelivery {
  const body = JSON.stringify({
    eventId: 'evt_1',
    name: 'test_event',
    timestamp: new Date().toISOString(),
    data: { message: 'hello' },
    cursor: null,
  });
  return {
    subscriptionId: 'sub_1',
    url: `${receiver.origin}${path}`,
    secret,
    eventId: 'evt_1',
    body,
  };
}

describe('postSignedDelivery', () => {
  it('POSTs the body signed with the secret, and reads the callback’s status as a verdict', async () => {
    const secret = generateWebhookSecret();
    const options = { allowPrivateCallbacks: true, timeoutMs: 5000, ca: certificate.cert };
    const statuses: Record<string, number> = {
      '/ok': 204,
      '/gone': 410,
      '/big': 413,
      '/down': 503,
    };
    receiver.answer = (request) => statuses[request.path] ?? 404;
    const verdicts = [];
    for (const path of Object.keys(statuses))
      verdicts.push(await postSignedDelivery(delivery(path, secret), options));
    expect(verdicts).toEqual(['delivered', 'gone', 'drop', 'retry']);
    const [sent] = await receiver.waitFor((request) => request.path === '/ok');
    expect(verifyWebhookDelivery(secret, sent!.headers, sent!.body)).toMatchObject({
      ok: true,
      delivery: { subscriptionId: 'sub_1', occurrence: { eventId: 'evt_1' } },
    });
  });

  it('refuses a loopback callback unless private callbacks are allowed', async () => {
    const posted = postSignedDelivery(delivery('/private', generateWebhookSecret()), {
      allowPrivateCallbacks: false,
      timeoutMs: 5000,
    });
    await expect(posted).rejects.toBeInstanceOf(CallbackRefusedError);
    expect(receiver.received.some((request) => request.path === '/private')).toBe(false);
  });
});

describe('checkWebhookDelivery', () => {
  it('passes a good secret and callback, and refuses each bad one naming its field', async () => {
    const secret = generateWebhookSecret();
    await checkWebhookDelivery('t', { url: `${receiver.origin}/x`, secret }, true);
    await expect(
      checkWebhookDelivery('t', { url: `${receiver.origin}/x`, secret }, false),
    ).rejects.toMatchObject({
      code: -32602,
      data: { field: 'delivery.url', reason: 'private-address' },
    });
    await expect(
      checkWebhookDelivery('t', { url: 'http://example.com/x', secret }, false),
    ).rejects.toMatchObject({ data: { field: 'delivery.url', reason: 'not-https' } });
    await expect(
      checkWebhookDelivery('t', { url: 'https://example.com/x', secret: 'whsec_c2hvcnQ=' }, false),
    ).rejects.toMatchObject({ data: { field: 'delivery.secret' } });
  });
});
