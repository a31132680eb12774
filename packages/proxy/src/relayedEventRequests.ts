import type { EventOccurrence } from '@rondo/client';
import type { ExtensionCall } from '@rondo/core';
import { paginate } from '@rondo/core/internal';
import { isMcpError, type JsonObject } from '@rondo/protocol';
import {
  renamedRefusal,
  tooLongAnswer,
  tooManyRelayedStreams,
  unknownRelayedType,
  webhookNotRelayed,
} from './eventsRelayErrors.js';
import type { RelayCursors, RelayedBinding } from './relayCursors.js';
import { RelayedEventStream, type StreamRoute } from './relayedEventStream.js';
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
  ) {}

  /** One page of every upstream's types, the first of each name kept; a first page reads them afresh. */
  async list(cursor: string | undefined, pageSize: number): Promise<JsonObject> {
    const listing = this.serving();
    if (cursor === undefined) await Promise.all(listing.map((events) => events.refresh()));
    const page = paginate(firstOfEachName(listing), cursor, pageSize);
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

  /** `events/subscribe` and `events/unsubscribe`: an unknown name as such, any other refused. */
  async refuseWebhook(name: string, call: ExtensionCall): Promise<never> {
    await this.route(name, {}, call);
    throw webhookNotRelayed(name);
  }

  /** Ends every relayed stream with `terminated` (the gateway is closing). */
  closeAll(): void {
    for (const stream of [...this.open]) stream.closeGracefully();
  }

  private async route(
    name: string,
    args: Record<string, unknown> | undefined,
    call: ExtensionCall,
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
    throw unknownRelayedType(name);
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

/** Every upstream's listed event types, the first of each name kept. */
function firstOfEachName(serving: readonly ProxyEvents[]): JsonObject[] {
  const seen = new Set<string>();
  const merged: JsonObject[] = [];
  for (const events of serving) {
    for (const type of events.listed) {
      if (seen.has(type.name)) continue;
      seen.add(type.name);
      merged.push(type as unknown as JsonObject);
    }
  }
  return merged;
}
