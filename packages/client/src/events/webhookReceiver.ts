import { Webhook } from 'standardwebhooks';
import { checkOccurrence, type EventOccurrence } from './eventWire.js';

/** The header of each delivery naming the subscription it is for. */
export const SUBSCRIPTION_ID_HEADER = 'x-mcp-subscription-id';

/** Request headers as a receiver has them: a Fetch `Headers`, or Node's `IncomingHttpHeaders`. */
export type ReceivedHeaders =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/** A delivery whose signature verified. */
export interface VerifiedDelivery {
  /** The subscription it is for (`X-MCP-Subscription-Id`). */
  readonly subscriptionId: string;
  /** The occurrence it carries; deduplicate on its `eventId` (retries repeat it). */
  readonly occurrence: EventOccurrence;
}

/** What checking a delivery came to: the delivery, or why it must be refused (answer 401). */
export type WebhookVerdict =
  | { readonly ok: true; readonly delivery: VerifiedDelivery }
  | { readonly ok: false; readonly reason: string };

/**
 * Checks one webhook delivery of the Events extension: its Standard Webhooks signature
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature`: HMAC-SHA256 with the subscription's
 * secret over the id, the timestamp and the exact body, the timestamp within 5 minutes) and its
 * shape. `body` must be the raw body as received: a re-serialized one does not verify.
 *
 * ```ts
 * const verdict = verifyWebhookDelivery(secret, request.headers, rawBody);
 * if (!verdict.ok) return new Response(null, { status: 401 });
 * handle(verdict.delivery.occurrence);
 * ```
 */
export function verifyWebhookDelivery(
  secret: string,
  headers: ReceivedHeaders,
  body: string,
): WebhookVerdict {
  const read = (name: string): string => {
    if (typeof headers.get === 'function') return headers.get(name) ?? '';
    const value = (headers as Record<string, string | readonly string[] | undefined>)[name];
    return typeof value === 'string' ? value : '';
  };
  try {
    new Webhook(secret).verify(body, {
      'webhook-id': read('webhook-id'),
      'webhook-timestamp': read('webhook-timestamp'),
      'webhook-signature': read('webhook-signature'),
    });
  } catch (failure) {
    return { ok: false, reason: failure instanceof Error ? failure.message : String(failure) };
  }
  const subscriptionId = read(SUBSCRIPTION_ID_HEADER);
  if (subscriptionId === '') return { ok: false, reason: `no ${SUBSCRIPTION_ID_HEADER} header` };
  try {
    return {
      ok: true,
      delivery: { subscriptionId, occurrence: checkOccurrence(JSON.parse(body)) },
    };
  } catch (failure) {
    return { ok: false, reason: failure instanceof Error ? failure.message : String(failure) };
  }
}

/** A fresh Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}
