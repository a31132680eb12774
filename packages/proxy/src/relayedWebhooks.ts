import { ConfigurationError, type ExtensionCall, type HandlerContext } from '@rondo/core';
import { DEFAULT_WEBHOOK_LIMITS, MemoryWebhookStore, type WebhookLimits } from '@rondo/events';
import type { JsonObject } from '@rondo/protocol';
import type { RelayCursors } from './relayCursors.js';
import type { StreamRoute } from './relayedEventStream.js';
import { WebhookFeed, type FeedServices } from './webhookFeed.js';

/** Webhook subscriptions one gateway holds at once over every caller, unless `maxSubscriptions` says otherwise. */
export const DEFAULT_RELAYED_WEBHOOK_SUBSCRIPTIONS = 1000;

/**
 * How a gateway delivers webhook subscriptions itself (`relayEvents({ webhooks })`): the bounds and
 * pacing of `@rondo/events`' own webhooks, and the callback rules.
 */
export interface RelayedWebhookOptions extends Partial<WebhookLimits> {
  /** Subscriptions held at once over every caller, each an upstream stream (default 1,000). */
  readonly maxSubscriptions?: number;
  /** Development only: accept callbacks on loopback and private addresses (https is still required). */
  readonly allowPrivateCallbacks?: boolean;
  /** Certificate authorities callbacks are checked against instead of Node's. */
  readonly ca?: string | Buffer | readonly (string | Buffer)[];
}

/** The longest delay one `setTimeout` holds (ms). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A caller's webhook subscription as `events/subscribe` asks for it, checked and routed. */
export interface WebhookRequest {
  /** The subscription's id (a digest of its principal, type, arguments and callback). */
  readonly id: string;
  readonly principal: string;
  readonly route: StreamRoute;
  readonly url: string;
  readonly secret: string;
  readonly ttlMs: number | undefined;
}

/** Where a subscription's upstream stream goes now, for the caller it acts for. */
export type Rerouter = (
  name: string,
  args: Record<string, unknown>,
  caller: HandlerContext,
) => Promise<StreamRoute | undefined>;

/**
 * The webhook subscriptions a gateway holds for its callers: each kept (in this process: see
 * docs/gateway.md) with its principal, callback, secret and expiry under `@rondo/events`' bounds,
 * and fed by a {@link WebhookFeed}. A subscription lapses at its expiry unless refreshed (the same
 * request again), and ends when unsubscribed, when its callback answers 410 Gone or when its
 * upstream refuses it.
 */
export class RelayedWebhooks {
  readonly limits: WebhookLimits & { readonly maxSubscriptions: number };
  readonly allowPrivateCallbacks: boolean;
  private readonly store = new MemoryWebhookStore();
  private readonly feeds = new Map<string, { feed: WebhookFeed; opened: Promise<string | null> }>();
  private readonly expiries = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly services: FeedServices;

  constructor(
    options: RelayedWebhookOptions,
    cursors: RelayCursors,
    reroute: Rerouter,
    private readonly now: () => number = Date.now,
  ) {
    this.limits = relayedWebhookLimits(options);
    this.allowPrivateCallbacks = options.allowPrivateCallbacks ?? false;
    this.services = {
      cursors,
      limits: this.limits,
      delivery: {
        allowPrivateCallbacks: this.allowPrivateCallbacks,
        timeoutMs: this.limits.timeoutMs,
        ca: options.ca,
        now,
      },
      target: async (id) => this.store.get(id, this.now()),
      reroute,
      end: (id) => void this.end(id),
    };
  }

  /**
   * Creates the subscription and opens its upstream stream, or refreshes it (a new expiry and
   * secret); answers `events/subscribe`'s result. `refused(held)` is thrown past a bound.
   */
  async subscribe(
    request: WebhookRequest,
    call: ExtensionCall,
    refused: (limit: 'maxSubscriptionsPerPrincipal' | 'maxSubscriptions', max: number) => Error,
  ): Promise<JsonObject> {
    const { id, route } = request;
    const now = this.now();
    const ttlMs = Math.min(request.ttlMs ?? this.limits.defaultTtlMs, this.limits.maxTtlMs);
    if (!this.feeds.has(id) && this.feeds.size >= this.limits.maxSubscriptions)
      throw refused('maxSubscriptions', this.limits.maxSubscriptions);
    const saved = this.store.save(
      {
        id,
        principal: request.principal,
        name: route.binding.name,
        arguments: route.binding.arguments,
        url: request.url,
        secret: request.secret,
        expiresAt: now + ttlMs,
      },
      this.limits.maxSubscriptionsPerPrincipal,
      now,
    );
    if (!saved.saved)
      throw refused('maxSubscriptionsPerPrincipal', this.limits.maxSubscriptionsPerPrincipal);
    let held = this.feeds.get(id);
    if (held === undefined) {
      const feed = new WebhookFeed(
        { id, name: route.binding.name, arguments: route.binding.arguments },
        call,
        this.services,
      );
      held = { feed, opened: feed.open(route) };
      this.feeds.set(id, held);
      held.opened.catch(() => this.end(id));
    } else held.feed.caller = call;
    const cursor = await held.opened;
    this.expireAt(id, ttlMs);
    return {
      id,
      refreshBefore: new Date(now + ttlMs).toISOString(),
      cursor: cursor === null ? null : await this.services.cursors.wrap(cursor, route.binding),
      truncated: false,
    };
  }

  /** Ends subscription `id` (no error when there is none): nothing more is delivered for it. */
  async end(id: string): Promise<void> {
    this.store.remove(id);
    clearTimeout(this.expiries.get(id));
    this.expiries.delete(id);
    const held = this.feeds.get(id);
    this.feeds.delete(id);
    await held?.feed.stop();
  }

  /** Ends every subscription (the gateway is closing). */
  async close(): Promise<void> {
    await Promise.all([...this.feeds.keys()].map((id) => this.end(id)));
  }

  /** Ends `id` when it lapses; a lifetime past what one timer holds is waited for in steps. */
  private expireAt(id: string, ttlMs: number): void {
    clearTimeout(this.expiries.get(id));
    const timer = setTimeout(
      () => {
        const live = this.store.get(id, this.now());
        if (live === undefined) void this.end(id);
        else this.expireAt(id, live.expiresAt - this.now());
      },
      Math.min(ttlMs, MAX_TIMER_MS),
    );
    timer.unref?.();
    this.expiries.set(id, timer);
  }
}

/** The limits of {@link RelayedWebhookOptions}, each a positive integer (`ConfigurationError` otherwise). */
export function relayedWebhookLimits(
  options: RelayedWebhookOptions,
): WebhookLimits & { readonly maxSubscriptions: number } {
  const limits: Record<string, number> = {
    ...DEFAULT_WEBHOOK_LIMITS,
    maxSubscriptions: DEFAULT_RELAYED_WEBHOOK_SUBSCRIPTIONS,
  };
  for (const key of Object.keys(limits)) {
    const value = (options as Record<string, unknown>)[key] ?? limits[key];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
      throw new ConfigurationError(`relayEvents: webhooks.${key} must be a positive integer`);
    limits[key] = value;
  }
  return limits as unknown as WebhookLimits & { readonly maxSubscriptions: number };
}
