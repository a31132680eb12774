import { Webhook } from 'standardwebhooks';
import { postCallback } from '#callbackNetwork';
import { resolveCallback } from './callbackTarget.js';
import { SUBSCRIPTION_ID_HEADER } from './wire.js';

/** One webhook delivery as it goes out: the occurrence's body, where to, signed with what. */
export interface SignedDelivery {
  /** The subscription it is for: its `X-MCP-Subscription-Id`. */
  readonly subscriptionId: string;
  /** The https callback. */
  readonly url: string;
  /** The subscription's Standard Webhooks secret (`whsec_…`). */
  readonly secret: string;
  /** The occurrence's id: the `webhook-id`, the same on every attempt. */
  readonly eventId: string;
  /** The JSON body. */
  readonly body: string;
}

/** How a delivery is sent. */
export interface SignedDeliveryOptions {
  /** Development only: a callback on a loopback or private address is posted to. */
  readonly allowPrivateCallbacks: boolean;
  /** The most time the callback may take to answer (ms). */
  readonly timeoutMs: number;
  /** Certificate authorities trusted instead of Node's. */
  readonly ca?: string | Buffer | readonly (string | Buffer)[] | undefined;
  /** The clock the signature's timestamp is taken from (default `Date.now`). */
  readonly now?: () => number;
}

/**
 * What a callback's answer means: `delivered` (2xx), `gone` (410: the subscriber wants no more),
 * `drop` (413: this body will never be taken) or `retry` (anything else).
 */
export type CallbackVerdict = 'delivered' | 'gone' | 'drop' | 'retry';

/**
 * Makes one attempt at a webhook delivery: checks the callback again (https; a public address
 * unless private ones are allowed) and connects to the address checked, signs the body anew
 * (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`) and names the
 * subscription in `X-MCP-Subscription-Id`. Rejects when the callback is refused or unreachable.
 */
export async function postSignedDelivery(
  delivery: SignedDelivery,
  options: SignedDeliveryOptions,
): Promise<CallbackVerdict> {
  const target = await resolveCallback(delivery.url, options.allowPrivateCallbacks);
  const sent = new Date((options.now ?? Date.now)());
  const signature = new Webhook(delivery.secret).sign(delivery.eventId, sent, delivery.body);
  const status = await postCallback(
    target,
    delivery.body,
    {
      'content-type': 'application/json',
      'webhook-id': delivery.eventId,
      'webhook-timestamp': String(Math.floor(sent.getTime() / 1000)),
      'webhook-signature': signature,
      [SUBSCRIPTION_ID_HEADER]: delivery.subscriptionId,
    },
    { timeoutMs: options.timeoutMs, ca: options.ca },
  );
  if (status >= 200 && status < 300) return 'delivered';
  if (status === 410) return 'gone';
  return status === 413 ? 'drop' : 'retry';
}
