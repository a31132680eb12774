import type { EventOccurrence, EventStream } from '@rondo/client';
import type { HandlerContext } from '@rondo/core';
import {
  DeliveryQueue,
  EventsErrorCode,
  postSignedDelivery,
  type AttemptOutcome,
  type PendingDelivery,
  type SignedDeliveryOptions,
  type WebhookLimits,
} from '@rondo/events';
import { ErrorCode, isMcpError, type JsonObject, type McpError } from '@rondo/protocol';
import { renamedRefusal } from './eventsRelayErrors.js';
import type { UpstreamLease } from './linkPool.js';
import type { RelayCursors } from './relayCursors.js';
import type { StreamRoute } from './relayedEventStream.js';
import { upstreamFailure } from './roundRunner.js';

/** A gateway-held webhook subscription as its feed sees it (the store keeps its secret and expiry). */
export interface FedSubscription {
  /** The subscription's id (`X-MCP-Subscription-Id`). */
  readonly id: string;
  /** The event type as the caller names it. */
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/** What a feed asks of the gateway around it. */
export interface FeedServices {
  readonly cursors: RelayCursors;
  readonly limits: WebhookLimits;
  readonly delivery: SignedDeliveryOptions;
  /** The subscription's callback and secret now, or undefined once it is gone or lapsed. */
  target(id: string): Promise<{ readonly url: string; readonly secret: string } | undefined>;
  /** Where the type is served now (the entry may have gone in a reload). */
  reroute(
    name: string,
    args: Record<string, unknown>,
    caller: HandlerContext,
  ): Promise<StreamRoute | undefined>;
  /** Ends the subscription: its callback said 410 Gone, or the upstream refuses it now. */
  end(id: string, why: string): void;
}

/** An open upstream stream, the connection it holds and where it goes. */
interface HeldStream {
  readonly route: StreamRoute;
  readonly lease: UpstreamLease;
  readonly stream: EventStream;
}

/**
 * The answers by which an upstream refuses a subscription for good (an unknown type, a bad cursor
 * or arguments, no access, no push): anything else (an internal error, a lost connection) passes.
 */
const REFUSALS: ReadonlySet<number> = new Set([
  ErrorCode.InvalidParams,
  EventsErrorCode.NotFound,
  EventsErrorCode.Forbidden,
  EventsErrorCode.Unsupported,
]);

function isRefusal(failure: unknown): failure is McpError {
  return isMcpError(failure) && REFUSALS.has(failure.code);
}

/** The first wait before a feed opens its upstream stream again (ms), doubled up to a minute. */
export const FEED_RETRY_MS = 1000;
const FEED_RETRY_MAX_MS = 60_000;

/**
 * The delivery of one webhook subscription held by a gateway: one upstream `events/stream` with the
 * subscription's arguments, on the connection its caller's calls run on, each occurrence POSTed to
 * the caller's callback (signed with the caller's secret, its cursor sealed for the caller, in
 * order, retried with backoff: see `DeliveryQueue`). When the upstream stream ends (the upstream
 * restarted, the entry was reloaded) it opens again from the last cursor; an upstream that refuses
 * that cursor is asked from now, and one that refuses the subscription itself ends it.
 */
export class WebhookFeed {
  private readonly queue: DeliveryQueue;
  private stopped = false;
  private stream: EventStream | undefined;
  private pumping: Promise<void> = Promise.resolve();
  private wake: (() => void) | undefined;

  constructor(
    private readonly subscription: FedSubscription,
    /** The request that made or last refreshed the subscription: whose connection the feed uses. */
    public caller: HandlerContext,
    private readonly services: FeedServices,
  ) {
    const { limits } = services;
    this.queue = new DeliveryQueue({
      maxPending: limits.maxPendingPerSubscription,
      maxAttempts: limits.maxAttempts,
      retryDelayMs: limits.retryDelayMs,
      maxRetryDelayMs: limits.maxRetryDelayMs,
      attempt: (delivery) => this.attempt(delivery),
      idle: () => undefined,
    });
  }

  /**
   * Opens the upstream stream from now and starts delivering; resolves with the upstream's cursor
   * of now, or rejects with the upstream's refusal as the caller should see it.
   */
  async open(route: StreamRoute): Promise<string | null> {
    try {
      const held = await this.opened(route, null);
      this.pumping = this.pump(held);
      return held.stream.cursor;
    } catch (failure) {
      const error = upstreamFailure(route.events.upstreamName, failure);
      throw renamedRefusal(error, route.upstreamName, this.subscription.name);
    }
  }

  /** Stops the upstream stream and drops every waiting delivery. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.queue.close();
    this.wake?.();
    await this.stream?.close();
    await this.pumping;
  }

  /** An upstream stream from `cursor`, open (its `active` heard), or why not. */
  private async opened(route: StreamRoute, cursor: string | null): Promise<HeldStream> {
    const lease = await route.events.lease(this.caller);
    const stream = lease.client.serverEvents.stream(
      { name: route.upstreamName, arguments: this.subscription.arguments, cursor },
      { maxReconnects: 2 },
    );
    this.stream = stream;
    try {
      await stream.opened;
      return { route, lease, stream };
    } catch (failure) {
      lease.release();
      await stream.close();
      throw failure;
    }
  }

  /** Delivers what the stream brings; opens it again whenever it ends, until stopped. */
  private async pump(first: HeldStream): Promise<void> {
    let held: HeldStream | undefined = first;
    let cursor = first.stream.cursor;
    let failures = 0;
    while (!this.stopped) {
      if (held !== undefined) {
        if (await this.drain(held)) failures = 0;
        held.lease.release();
        cursor = held.stream.cursor;
      }
      if (this.stopped) return;
      await this.pause(Math.min(FEED_RETRY_MS * 2 ** failures, FEED_RETRY_MAX_MS));
      failures += 1;
      held = this.stopped ? undefined : await this.reopen(cursor).catch(() => undefined);
    }
  }

  /** Delivers every occurrence of the stream until it ends; true when it brought any. */
  private async drain({ route, stream }: HeldStream): Promise<boolean> {
    let heard = false;
    try {
      for await (const occurrence of stream) {
        heard = true;
        this.queue.add(await this.delivery(route, occurrence));
      }
    } catch {
      // The stream gave up (its upstream went away or refused it): the loop opens it again.
    }
    return heard;
  }

  /** The stream again, where the type is served now: from `cursor`, or from now if it is refused. */
  private async reopen(cursor: string | null): Promise<HeldStream | undefined> {
    const { name, arguments: args } = this.subscription;
    const route = await this.services.reroute(name, args, this.caller);
    if (route === undefined) {
      this.services.end(this.subscription.id, 'no entry serves the event type any more');
      return undefined;
    }
    try {
      return await this.opened(route, cursor);
    } catch (failure) {
      if (!isRefusal(failure) || cursor === null) throw failure;
    }
    // The upstream no longer takes the cursor (a restart with new keys): follow it from now.
    try {
      return await this.opened(route, null);
    } catch (failure) {
      if (isRefusal(failure))
        this.services.end(this.subscription.id, `the upstream refuses it: ${failure.message}`);
      throw failure;
    }
  }

  /** One occurrence as the caller's callback gets it: the caller's name and a cursor sealed for it. */
  private async delivery(
    route: StreamRoute,
    occurrence: EventOccurrence,
  ): Promise<PendingDelivery> {
    const cursor = occurrence.cursor;
    const body: JsonObject = {
      eventId: occurrence.eventId,
      name: this.subscription.name,
      timestamp: occurrence.timestamp,
      data: occurrence.data as JsonObject,
      cursor:
        typeof cursor === 'string' ? await this.services.cursors.wrap(cursor, route.binding) : null,
    };
    return { eventId: occurrence.eventId, body: JSON.stringify(body) };
  }

  private async attempt(delivery: PendingDelivery): Promise<AttemptOutcome> {
    const target = await this.services.target(this.subscription.id);
    if (target === undefined) return 'unsubscribed';
    const verdict = await postSignedDelivery(
      { subscriptionId: this.subscription.id, ...target, ...delivery },
      { ...this.services.delivery, timeoutMs: this.services.limits.timeoutMs },
    );
    if (verdict !== 'gone') return verdict;
    this.services.end(this.subscription.id, 'its callback answered 410 Gone');
    return 'unsubscribed';
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref?.();
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
