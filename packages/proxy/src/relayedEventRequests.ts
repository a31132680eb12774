import type { EventOccurrence, EventTypeDescriptor } from '@rondo/client';
import type { ExtensionCall, HandlerContext } from '@rondo/core';
import {
  checkWebhookDelivery,
  eventsErrors,
  webhookSubscriptionId,
  type SubscribeEventsParams,
  type UnsubscribeEventsParams,
} from '@rondo/events';
import { paginate } from '@rondo/core/internal';
import type { z } from 'zod';
import { isMcpError, type JsonObject } from '@rondo/protocol';
import {
  renamedRefusal,
  tooLongAnswer,
  tooManyRelayedStreams,
  tooManyRelayedWebhooks,
  webhookNotRelayed,
} from './eventsRelayErrors.js';
import type { RelayCursors, RelayedBinding } from './relayCursors.js';
import { RelayedEventStream, type StreamRoute } from './relayedEventStream.js';
import type { RelayedWebhooks } from './relayedWebhooks.js';
import type { StreamShares } from './streamShares.js';
import type { ProxyEvents } from './upstreamEvents.js';

/** The most occurrences one relayed `events/poll` asks for and answers (the extension's own cap). */
export const MAX_RELAYED_POLL_EVENTS = 1000;

/** A caller's subscription as its request names it. */
export interface RelayedSubscription {
  readonly name: string;
  readonly arguments?: Record<string, unknown> | undefined;
  readonly cursor?: string | null | undefined;
  readonly maxAgeMs?: number | undefined;
}

/**
 * What the relayed Events methods do, whoever serves them: find the upstream owning a name (the
 * first of `serving()` listing it), open and seal cursors for the caller, and run each request
 * there (see `relayEvents`).
 */
export class RelayedEventRequests {
  private readonly open = new Set<RelayedEventStream>();

  constructor(
    /** The upstreams declaring the extension now, in the gateway's order. */
    private readonly serving: () => ProxyEvents[],
    private readonly cursors: RelayCursors,
    private readonly shares: StreamShares,
    /** The gateway's own webhook delivery; without it `events/subscribe` is refused. */
    private readonly webhooks: RelayedWebhooks | undefined,
  ) {}

  /** One page of every upstream's types, the first of each name kept; a first page reads them afresh. */
  async list(cursor: string | undefined, pageSize: number): Promise<JsonObject> {
    const listing = this.serving();
    if (cursor === undefined) await Promise.all(listing.map((events) => events.refresh()));
    const page = paginate(firstOfEachName(listing, this.webhooks !== undefined), cursor, pageSize);
    const result: JsonObject = { events: page.items };
    if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
    return result;
  }

  /** An `events/poll` asked of the owning upstream, its answer's cursors sealed for the caller. */
  async poll(
    params: RelayedSubscription & { readonly maxEvents?: number | undefined },
    call: ExtensionCall,
  ): Promise<JsonObject> {
    const to = await this.route(params.name, params.arguments, call);
    const cursor = await this.unwrapped(params.cursor, to);
    const maxEvents = Math.min(
      params.maxEvents ?? MAX_RELAYED_POLL_EVENTS,
      MAX_RELAYED_POLL_EVENTS,
    );
    const asked = {
      name: to.upstreamName,
      arguments: to.binding.arguments,
      cursor,
      maxEvents,
      ...(params.maxAgeMs !== undefined ? { maxAgeMs: params.maxAgeMs } : {}),
    };
    const polled = await to.events.poll(asked, call).catch((error: unknown) => {
      throw isMcpError(error) ? renamedRefusal(error, to.upstreamName, params.name) : error;
    });
    // An answer past what was asked is the upstream's fault; cutting it would skip occurrences.
    if (polled.events.length > maxEvents) throw tooLongAnswer(to.events.upstreamName, maxEvents);
    return {
      events: await Promise.all(polled.events.map((occurrence) => this.rewrapped(occurrence, to))),
      cursor: polled.cursor === null ? null : await this.cursors.wrap(polled.cursor, to.binding),
      truncated: polled.truncated,
      hasMore: polled.hasMore,
      nextPollMs: polled.nextPollMs,
    };
  }

  /** An `events/stream` relayed for as long as the caller's request lives (a place of its share). */
  async stream(params: RelayedSubscription, call: ExtensionCall): Promise<JsonObject> {
    const to = await this.route(params.name, params.arguments, call);
    const cursor = await this.unwrapped(params.cursor, to);
    const release = this.shares.admit(call.principal?.id ?? call.client ?? 'anonymous', () =>
      tooManyRelayedStreams(this.shares.max),
    );
    const stream = new RelayedEventStream(call, to, this.cursors);
    this.open.add(stream);
    try {
      return await stream.run({ cursor, maxAgeMs: params.maxAgeMs });
    } finally {
      this.open.delete(stream);
      release();
    }
  }

  /**
   * `events/subscribe`, checked in the extension's order (an authenticated caller, a known type,
   * one whose upstream offers webhook and push, a good secret and callback, a cursor of this
   * subscription) and held by the gateway, which delivers it from an upstream stream.
   */
  async subscribe(
    params: z.infer<typeof SubscribeEventsParams>,
    call: ExtensionCall,
  ): Promise<JsonObject> {
    const { webhooks, principal, to } = await this.webhookRoute(params, call);
    if (!relayedModes(typeOf(to), true).includes('webhook'))
      throw eventsErrors.unsupportedMode(params.name, 'webhook');
    await checkWebhookDelivery(params.name, params.delivery, webhooks.allowPrivateCallbacks);
    if (params.cursor != null) await this.cursors.unwrap(params.cursor, to.binding);
    const { url, secret } = params.delivery;
    const id = await webhookSubscriptionId(principal, params.name, to.binding.arguments, url);
    return webhooks.subscribe(
      { id, principal, route: to, url, secret, ttlMs: params.ttlMs },
      call,
      (limit, max) =>
        limit === 'maxSubscriptions'
          ? tooManyRelayedWebhooks(max)
          : eventsErrors.tooManySubscriptions(max),
    );
  }

  /** `events/unsubscribe`: the caller's subscription with this key ends (none is no error). */
  async unsubscribe(
    params: z.infer<typeof UnsubscribeEventsParams>,
    call: ExtensionCall,
  ): Promise<JsonObject> {
    const { webhooks, principal, to } = await this.webhookRoute(params, call);
    const url = params.delivery.url;
    await webhooks.end(
      await webhookSubscriptionId(principal, params.name, to.binding.arguments, url),
    );
    return {};
  }

  /** A webhook request's first checks: webhooks on, an authenticated caller, a known type. */
  private async webhookRoute(
    params: { readonly name: string; readonly arguments?: Record<string, unknown> | undefined },
    call: ExtensionCall,
  ): Promise<{ webhooks: RelayedWebhooks; principal: string; to: StreamRoute }> {
    const webhooks = this.webhooks;
    if (webhooks === undefined) return this.refuseWebhook(params.name, call);
    const principal = call.principal;
    if (principal === undefined) throw eventsErrors.unauthenticated(params.name);
    return {
      webhooks,
      principal: principal.id,
      to: await this.route(params.name, params.arguments, call),
    };
  }

  /** Where a held subscription's stream goes now: undefined when no entry serves its type. */
  reroute(
    name: string,
    args: Record<string, unknown>,
    caller: Pick<HandlerContext, 'principal'>,
  ): Promise<StreamRoute | undefined> {
    return this.route(name, args, caller).catch(() => undefined);
  }

  /** Webhooks are off: an unknown name as such, any other refused. */
  private async refuseWebhook(name: string, call: ExtensionCall): Promise<never> {
    await this.route(name, {}, call);
    throw webhookNotRelayed(name);
  }

  /** Ends every relayed stream with `terminated` and every webhook subscription (the gateway is closing). */
  async closeAll(): Promise<void> {
    for (const stream of [...this.open]) stream.closeGracefully();
    await this.webhooks?.close();
  }

  private async route(
    name: string,
    args: Record<string, unknown> | undefined,
    call: Pick<HandlerContext, 'principal'>,
  ): Promise<StreamRoute> {
    for (const events of this.serving()) {
      const upstreamName = await events.resolve(name);
      if (upstreamName === undefined) continue;
      const binding: RelayedBinding = {
        upstream: events.upstreamName,
        name,
        arguments: args ?? {},
        principal: call.principal,
      };
      return { events, upstreamName, binding };
    }
    throw eventsErrors.unknownEventType(name);
  }

  private unwrapped(cursor: string | null | undefined, to: StreamRoute): Promise<string | null> {
    return cursor == null ? Promise.resolve(null) : this.cursors.unwrap(cursor, to.binding);
  }

  private async rewrapped(occurrence: EventOccurrence, to: StreamRoute): Promise<JsonObject> {
    const cursor = occurrence.cursor;
    return {
      ...(occurrence as unknown as JsonObject),
      name: to.binding.name,
      cursor: typeof cursor === 'string' ? await this.cursors.wrap(cursor, to.binding) : null,
    };
  }
}

/** Every upstream's listed event types, the first of each name kept, with the modes relayed. */
function firstOfEachName(serving: readonly ProxyEvents[], webhooks: boolean): JsonObject[] {
  const seen = new Set<string>();
  const merged: JsonObject[] = [];
  for (const events of serving) {
    for (const type of events.listed) {
      if (seen.has(type.name)) continue;
      seen.add(type.name);
      const delivery = relayedModes(type, webhooks);
      if (delivery.length > 0) merged.push({ ...(type as unknown as JsonObject), delivery });
    }
  }
  return merged;
}

/**
 * The modes a gateway offers for an upstream type: poll and push as the upstream does, and webhook
 * when the gateway delivers webhooks and the upstream offers both webhook and the push that feeds it.
 */
function relayedModes(type: EventTypeDescriptor | undefined, webhooks: boolean): string[] {
  const offered = type?.delivery ?? [];
  const feeds = webhooks && offered.includes('push') && offered.includes('webhook');
  return offered.filter((mode) => mode !== 'webhook' || feeds);
}

/** The upstream's descriptor of the routed type, as last listed. */
function typeOf(to: StreamRoute): EventTypeDescriptor | undefined {
  return to.events.listed.find((type) => type.name === to.binding.name);
}
