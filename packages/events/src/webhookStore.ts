import type { Awaitable } from '@rondo/core';

/** One webhook subscription: who holds it, what it hears, where it is delivered, until when. */
export interface WebhookSubscription {
  /** Derived from the principal, the event type, the arguments and the URL: a refresh names the same one. */
  readonly id: string;
  /** The id of the principal that subscribed; only it may refresh or unsubscribe. */
  readonly principal: string;
  /** The event type. */
  readonly name: string;
  /** The subscription arguments, checked against the type's `inputSchema`. */
  readonly arguments: Record<string, unknown>;
  /** The https callback deliveries are POSTed to. */
  readonly url: string;
  /** The Standard Webhooks secret (`whsec_…`) the deliveries are signed with. */
  readonly secret: string;
  /** When the subscription lapses unless refreshed (ms since the epoch). */
  readonly expiresAt: number;
}

/** What saving a subscription came to. */
export type SaveOutcome =
  | { readonly saved: true; readonly created: boolean }
  | { readonly saved: false; readonly held: number };

/**
 * Where webhook subscriptions and their delivery claims live: the memory default is
 * {@link MemoryWebhookStore}; a shared implementation (Redis) keeps the same contract, so replicas
 * see one set of subscriptions and each delivery is made once whichever replica heard the occurrence.
 * Every read and write is one step an implementation can make atomic.
 */
export interface WebhookStore {
  /**
   * Creates the subscription, or refreshes the one with its id (a new expiry and secret). A new
   * one is refused (`saved: false`) when its principal holds `maxPerPrincipal` unexpired ones.
   */
  save(
    subscription: WebhookSubscription,
    maxPerPrincipal: number,
    now: number,
  ): Awaitable<SaveOutcome>;
  /** The subscription with this id, unless it is gone or expired at `now`. */
  get(id: string, now: number): Awaitable<WebhookSubscription | undefined>;
  /** Forgets the subscription; false when there was none. */
  remove(id: string): Awaitable<boolean>;
  /** The unexpired subscriptions of an event type. */
  ofType(name: string, now: number): Awaitable<readonly WebhookSubscription[]>;
  /**
   * Claims the delivery of occurrence `eventId` to subscription `id`: true for the first claim,
   * false for every later one until `holdMs` have passed.
   */
  claim(id: string, eventId: string, holdMs: number, now: number): Awaitable<boolean>;
}

/**
 * Delivery claims one memory store remembers at most; the oldest are forgotten first. Forgetting
 * one early is harmless here: a memory store serves one process, which hears each occurrence once.
 */
export const MAX_MEMORY_CLAIMS = 10_000;

/** The in-memory {@link WebhookStore}: one process's subscriptions. */
export class MemoryWebhookStore implements WebhookStore {
  private readonly subscriptions = new Map<string, WebhookSubscription>();
  /** Claim keys to when they lapse, oldest first. */
  private readonly claims = new Map<string, number>();

  save(subscription: WebhookSubscription, maxPerPrincipal: number, now: number): SaveOutcome {
    this.forgetExpired(now);
    const created = !this.subscriptions.has(subscription.id);
    if (created) {
      const held = [...this.subscriptions.values()].filter(
        (held) => held.principal === subscription.principal,
      ).length;
      if (held >= maxPerPrincipal) return { saved: false, held };
    }
    this.subscriptions.set(subscription.id, subscription);
    return { saved: true, created };
  }

  get(id: string, now: number): WebhookSubscription | undefined {
    const subscription = this.subscriptions.get(id);
    return subscription !== undefined && subscription.expiresAt > now ? subscription : undefined;
  }

  remove(id: string): boolean {
    return this.subscriptions.delete(id);
  }

  ofType(name: string, now: number): readonly WebhookSubscription[] {
    this.forgetExpired(now);
    return [...this.subscriptions.values()].filter((subscription) => subscription.name === name);
  }

  claim(id: string, eventId: string, holdMs: number, now: number): boolean {
    const key = `${id}\n${eventId}`;
    if ((this.claims.get(key) ?? 0) > now) return false;
    this.claims.delete(key);
    // Oldest first: forget the lapsed ones, and the oldest while the bound is reached.
    for (const [held, until] of this.claims) {
      if (until > now && this.claims.size < MAX_MEMORY_CLAIMS) break;
      this.claims.delete(held);
    }
    this.claims.set(key, now + holdMs);
    return true;
  }

  private forgetExpired(now: number): void {
    for (const [id, subscription] of this.subscriptions)
      if (subscription.expiresAt <= now) this.subscriptions.delete(id);
  }
}
