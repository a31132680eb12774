import type { JsonObject } from '@rondo/protocol';
import type { ExtensionCall } from '@rondo/core';
import { base64ToBytes, bytesToBase64Url, stableStringify } from '@rondo/core/internal';
import type { z } from 'zod';
import { CallbackRefusedError, resolveCallback } from './callbackTarget.js';
import { invalidDelivery, tooManySubscriptions, unauthenticated } from './errors.js';
import type { EventsHost } from './eventsHost.js';
import { Subscription } from './subscription.js';
import type { WebhookDeliverer } from './webhookDeliverer.js';
import type { WebhookLimits } from './webhookLimits.js';
import type { WebhookStore } from './webhookStore.js';
import type { SubscribeEventsParams, UnsubscribeEventsParams } from './wire.js';

/** What the webhook methods share besides the extension's host. */
export interface WebhookHost {
  readonly store: WebhookStore;
  readonly deliverer: WebhookDeliverer;
  readonly limits: WebhookLimits;
  readonly allowPrivateCallbacks: boolean;
}

/** A Standard Webhooks secret: `whsec_` and the base64 of 24 to 64 random bytes. */
const SECRET = /^whsec_([A-Za-z0-9+/]+={0,2})$/;

/**
 * `events/subscribe`: an authenticated caller's webhook subscription, created or refreshed. The
 * subscription is keyed by its principal, event type, arguments and callback (the same request
 * again refreshes it: a new expiry, the secret it names), so another principal can neither see nor
 * touch it. The callback must be https and, unless allowed, reach only public addresses.
 */
export async function subscribeWebhook(
  host: EventsHost,
  webhooks: WebhookHost,
  params: z.infer<typeof SubscribeEventsParams>,
  call: ExtensionCall,
): Promise<JsonObject> {
  const principal = call.principal;
  if (principal === undefined) throw unauthenticated(params.name);
  const subscription = await Subscription.check(host.types, params, call, 'webhook');
  const name = subscription.type.name;
  await checkWebhookDelivery(name, params.delivery, webhooks.allowPrivateCallbacks);
  if (params.cursor !== undefined && params.cursor !== null)
    await host.codec.open(params.cursor, subscription.binding);
  const now = host.now();
  const ttlMs = Math.min(params.ttlMs ?? webhooks.limits.defaultTtlMs, webhooks.limits.maxTtlMs);
  const id = await webhookSubscriptionId(
    principal.id,
    name,
    subscription.args,
    params.delivery.url,
  );
  const saved = await webhooks.store.save(
    {
      id,
      principal: principal.id,
      name,
      arguments: subscription.args,
      url: params.delivery.url,
      secret: params.delivery.secret,
      expiresAt: now + ttlMs,
    },
    webhooks.limits.maxSubscriptionsPerPrincipal,
    now,
  );
  if (!saved.saved) throw tooManySubscriptions(webhooks.limits.maxSubscriptionsPerPrincipal);
  const cursor = await host.codec.seal(await host.log.head(name), subscription.binding);
  return { id, refreshBefore: new Date(now + ttlMs).toISOString(), cursor, truncated: false };
}

/**
 * `events/unsubscribe`: removes the caller's subscription with this key and drops what waits for
 * it. Removing one that does not exist (or another principal's, which has another key) is no error:
 * the caller's subscription is gone either way.
 */
export async function unsubscribeWebhook(
  host: EventsHost,
  webhooks: WebhookHost,
  params: z.infer<typeof UnsubscribeEventsParams>,
  call: ExtensionCall,
): Promise<JsonObject> {
  const principal = call.principal;
  if (principal === undefined) throw unauthenticated(params.name);
  const subscription = await Subscription.check(host.types, params, call, 'webhook');
  const id = await webhookSubscriptionId(
    principal.id,
    subscription.type.name,
    subscription.args,
    params.delivery.url,
  );
  await webhooks.store.remove(id);
  webhooks.deliverer.forget(id);
  return {};
}

/** The id of a subscription: a digest of its key, so the same request names the same one. */
export async function webhookSubscriptionId(
  principal: string,
  name: string,
  args: Record<string, unknown>,
  url: string,
): Promise<string> {
  const key = new TextEncoder().encode(stableStringify([principal, name, args, url]));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', key));
  return `sub_${bytesToBase64Url(digest).slice(0, 32)}`;
}

/**
 * Checks the delivery an `events/subscribe` names for event type `name`: its secret (`whsec_` and
 * the base64 of 24 to 64 bytes) and its callback (https, resolving to public addresses only unless
 * `allowPrivate`). Refuses with the extension's InvalidParams error naming the field and the reason.
 */
export async function checkWebhookDelivery(
  name: string,
  delivery: { readonly url: string; readonly secret: string },
  allowPrivate: boolean,
): Promise<void> {
  checkSecret(name, delivery.secret);
  await checkCallback(name, delivery.url, allowPrivate);
}

function checkSecret(name: string, secret: string): void {
  const encoded = SECRET.exec(secret)?.[1];
  const bytes = encoded === undefined ? 0 : decodedLength(encoded);
  if (bytes < 24 || bytes > 64)
    throw invalidDelivery(name, 'secret', 'a secret is "whsec_" and the base64 of 24 to 64 bytes');
}

/** How many bytes a Base64 text holds; 0 when it is not Base64. */
function decodedLength(encoded: string): number {
  try {
    return base64ToBytes(encoded).length;
  } catch {
    return 0;
  }
}

async function checkCallback(name: string, url: string, allowPrivate: boolean): Promise<void> {
  try {
    await resolveCallback(url, allowPrivate);
  } catch (failure) {
    if (failure instanceof CallbackRefusedError) throw invalidDelivery(name, 'url', failure.reason);
    throw failure;
  }
}
