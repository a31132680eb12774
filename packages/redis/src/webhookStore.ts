import type { SaveOutcome, WebhookStore, WebhookSubscription } from '@rondo/events';
import { isPlainObject } from '@rondo/protocol';
import { parseJson } from './channels.js';
import type { RedisConnection } from './connection.js';
import type { Keys } from './keys.js';
import { CLAIM_DELIVERY, REMOVE_WEBHOOK, SAVE_WEBHOOK } from './webhookScripts.js';

/** How long a subscription's record outlives its expiry before Redis drops it (its sets are swept). */
const KEEP_AFTER_EXPIRY_MS = 60_000;

/**
 * The Events extension's {@link WebhookStore} on Redis: every replica sees one set of
 * subscriptions (a record per subscription, and sets of ids per event type and per principal,
 * scored by expiry), the per-principal cap is checked and a subscription saved in one step, and a
 * delivery claim is one atomic step, so each occurrence is delivered once per subscription
 * whichever replicas heard it.
 */
export class RedisWebhookStore implements WebhookStore {
  constructor(
    private readonly connection: RedisConnection,
    private readonly keys: Keys,
  ) {}

  async save(
    subscription: WebhookSubscription,
    maxPerPrincipal: number,
    now: number,
  ): Promise<SaveOutcome> {
    const [saved, detail] = await this.connection.script<[number, number]>(
      SAVE_WEBHOOK,
      this.keysOf(subscription),
      [
        JSON.stringify(subscription),
        subscription.id,
        subscription.expiresAt,
        maxPerPrincipal,
        now,
        Math.max(1, subscription.expiresAt - now) + KEEP_AFTER_EXPIRY_MS,
      ],
    );
    return saved === 1 ? { saved: true, created: detail === 1 } : { saved: false, held: detail };
  }

  async get(id: string, now: number): Promise<WebhookSubscription | undefined> {
    const subscription = this.decode(
      await this.connection.call<string | null>(['GET', this.keys.webhook(id)]),
    );
    return subscription !== undefined && subscription.expiresAt > now ? subscription : undefined;
  }

  async remove(id: string): Promise<boolean> {
    const subscription = this.decode(
      await this.connection.call<string | null>(['GET', this.keys.webhook(id)]),
    );
    if (subscription === undefined) return false;
    const removed = await this.connection.script<number>(
      REMOVE_WEBHOOK,
      this.keysOf(subscription),
      [id],
    );
    return removed === 1;
  }

  async ofType(name: string, now: number): Promise<readonly WebhookSubscription[]> {
    const set = this.keys.webhooksOfType(name);
    await this.connection.call(['ZREMRANGEBYSCORE', set, '-inf', String(now)]);
    const ids = await this.connection.call<string[]>(['ZRANGE', set, '0', '-1']);
    if (ids.length === 0) return [];
    const records = await this.connection.call<(string | null)[]>([
      'MGET',
      ...ids.map((id) => this.keys.webhook(id)),
    ]);
    return records
      .map((record) => this.decode(record))
      .filter((held): held is WebhookSubscription => held !== undefined && held.expiresAt > now);
  }

  async claim(id: string, eventId: string, holdMs: number, now: number): Promise<boolean> {
    const granted = await this.connection.script<number>(
      CLAIM_DELIVERY,
      [this.keys.webhookClaim(id, eventId)],
      [now, holdMs],
    );
    return granted === 1;
  }

  private keysOf(subscription: WebhookSubscription): string[] {
    return [
      this.keys.webhook(subscription.id),
      this.keys.webhooksOfType(subscription.name),
      this.keys.webhooksOfPrincipal(subscription.principal),
    ];
  }

  /** A stored record as a subscription; `undefined` (reported when malformed) otherwise. */
  private decode(record: string | null): WebhookSubscription | undefined {
    if (record === null) return undefined;
    const value = parseJson(record);
    if (
      isPlainObject(value) &&
      typeof value.id === 'string' &&
      typeof value.principal === 'string' &&
      typeof value.name === 'string' &&
      isPlainObject(value.arguments) &&
      typeof value.url === 'string' &&
      typeof value.secret === 'string' &&
      typeof value.expiresAt === 'number'
    )
      return value as unknown as WebhookSubscription;
    this.connection.report('skipped a malformed webhook subscription');
    return undefined;
  }
}
