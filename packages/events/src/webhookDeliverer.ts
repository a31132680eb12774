import type { JsonObject } from '@rondo/protocol';
import type { CursorCodec } from './cursors.js';
import { DeliveryQueue, type AttemptOutcome, type PendingDelivery } from './deliveryQueue.js';
import { matchesSubscription } from './matching.js';
import type { LoggedOccurrence, OccurrenceLog } from './occurrenceLog.js';
import type { WebhookLimits } from './webhookLimits.js';
import { postSignedDelivery } from './signedDelivery.js';
import type { WebhookStore, WebhookSubscription } from './webhookStore.js';

/** What the deliverer reads and where it delivers. */
export interface DelivererContext {
  readonly log: OccurrenceLog;
  readonly store: WebhookStore;
  readonly codec: CursorCodec;
  readonly limits: WebhookLimits;
  readonly allowPrivateCallbacks: boolean;
  readonly ca: string | Buffer | readonly (string | Buffer)[] | undefined;
  readonly now: () => number;
}

/**
 * Webhook delivery: follows the log of each event type that offers it and, for each occurrence,
 * queues one signed POST per matching unexpired subscription (claimed in the store first, so
 * processes sharing it deliver it once). Each attempt checks the subscription again (an
 * unsubscribed or lapsed one gets nothing more) and its callback again (connecting to the address
 * checked), signs the body with the subscription's secret (Standard Webhooks: `webhook-id`,
 * `webhook-timestamp`, `webhook-signature`) and names the subscription in `X-MCP-Subscription-Id`.
 * A 2xx is delivered; 410 Gone ends the subscription; 413 drops the delivery; anything else is
 * retried with backoff (see {@link DeliveryQueue}).
 */
export class WebhookDeliverer {
  private readonly queues = new Map<string, DeliveryQueue>();
  private readonly following: (() => void)[] = [];

  constructor(private readonly context: DelivererContext) {}

  /** Delivers the occurrences of `name` from now on. */
  follow(name: string): void {
    this.following.push(
      this.context.log.follow(name, (occurrence) => {
        // A store that failed for this occurrence must not take the process down; the occurrence
        // stays in the log, where a subscriber's poll from its last cursor finds it.
        this.occurred(name, occurrence).catch(() => undefined);
      }),
    );
  }

  /** Drops what is waiting for a subscription (it was removed). */
  forget(id: string): void {
    this.queues.get(id)?.close();
    this.queues.delete(id);
  }

  /** Deliveries waiting for a subscription (0 when none). */
  pending(id: string): number {
    return this.queues.get(id)?.size ?? 0;
  }

  /** Deliveries a subscription dropped while its queue lived. */
  dropped(id: string): number {
    return this.queues.get(id)?.dropped ?? 0;
  }

  /** Stops following and drops every waiting delivery. */
  close(): void {
    for (const stop of this.following.splice(0)) stop();
    for (const id of [...this.queues.keys()]) this.forget(id);
  }

  private async occurred(name: string, occurrence: LoggedOccurrence): Promise<void> {
    const { store, limits, now } = this.context;
    const holdMs = limits.maxAttempts * limits.maxRetryDelayMs + limits.timeoutMs;
    for (const subscription of await store.ofType(name, now())) {
      if (!matchesSubscription(occurrence.match, subscription.arguments)) continue;
      if (!(await store.claim(subscription.id, occurrence.eventId, holdMs, now()))) continue;
      const body = await this.body(subscription, occurrence);
      this.queue(subscription.id).add({ eventId: occurrence.eventId, body });
    }
  }

  private async body(subscription: WebhookSubscription, occurrence: LoggedOccurrence) {
    const { epoch } = await this.context.log.head(subscription.name);
    const cursor = await this.context.codec.seal(
      { epoch, seq: occurrence.seq },
      {
        name: subscription.name,
        arguments: subscription.arguments,
        principal: { id: subscription.principal },
      },
    );
    const wire: JsonObject = {
      eventId: occurrence.eventId,
      name: subscription.name,
      timestamp: new Date(occurrence.at).toISOString(),
      data: occurrence.data,
      cursor,
    };
    return JSON.stringify(wire);
  }

  private queue(id: string): DeliveryQueue {
    let queue = this.queues.get(id);
    if (queue === undefined) {
      const { limits } = this.context;
      const created: DeliveryQueue = new DeliveryQueue({
        maxPending: limits.maxPendingPerSubscription,
        maxAttempts: limits.maxAttempts,
        retryDelayMs: limits.retryDelayMs,
        maxRetryDelayMs: limits.maxRetryDelayMs,
        attempt: (delivery) => this.attempt(id, delivery),
        idle: () => {
          if (this.queues.get(id) === created) this.queues.delete(id);
        },
      });
      queue = created;
      this.queues.set(id, queue);
    }
    return queue;
  }

  private async attempt(id: string, delivery: PendingDelivery): Promise<AttemptOutcome> {
    const { store, now, limits } = this.context;
    const subscription = await store.get(id, now());
    if (subscription === undefined) return 'unsubscribed';
    const verdict = await postSignedDelivery(
      { subscriptionId: id, url: subscription.url, secret: subscription.secret, ...delivery },
      {
        allowPrivateCallbacks: this.context.allowPrivateCallbacks,
        timeoutMs: limits.timeoutMs,
        ca: this.context.ca,
        now,
      },
    );
    if (verdict === 'gone') {
      await store.remove(id);
      return 'unsubscribed';
    }
    return verdict;
  }
}
