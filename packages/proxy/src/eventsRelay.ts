import { EVENTS_EXTENSION, type EventOccurrence } from '@rondo/client';
import {
  extensionMethod,
  type Extension,
  type ExtensionCall,
  type Provider,
  type RequestStateOptions,
} from '@rondo/core';
import { paginate } from '@rondo/core/internal';
import { isMcpError, type JsonObject } from '@rondo/protocol';
import { z } from 'zod';
import {
  renamedRefusal,
  tooLongAnswer,
  tooManyRelayedStreams,
  unknownRelayedType,
  webhookNotRelayed,
} from './eventsRelayErrors.js';
import { ProxyProvider } from './proxyProvider.js';
import { RelayCursors, type RelayedBinding } from './relayCursors.js';
import { RelayedEventStream, type StreamRoute } from './relayedEventStream.js';
import { StreamShares } from './streamShares.js';
import type { ProxyEvents } from './upstreamEvents.js';

/** Open relayed `events/stream` requests of one caller, unless `maxStreamsPerClient` says otherwise. */
export const DEFAULT_RELAYED_STREAMS_PER_CLIENT = 16;

/** The most occurrences one relayed `events/poll` asks for and answers (the extension's own cap). */
export const MAX_RELAYED_POLL_EVENTS = 1000;

/** How a server with proxies relays the Events extension (see {@link relayEvents}). */
export interface EventsRelayOptions {
  /**
   * The key ring (and `ttlMs`, default 7 days) the gateway seals its callers' cursors with; replicas
   * behind one balancer need the same ring. Default: `RONDO_STATE_KEYS` / `RONDO_STATE_KEY`, else a
   * random key.
   */
  readonly cursors?: RequestStateOptions;
  /** Open relayed `events/stream` requests of one caller (its principal, else its connection's key); 0 for no cap. Default 16. */
  readonly maxStreamsPerClient?: number;
}

const Subscription = {
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).optional(),
  cursor: z.string().nullable().optional(),
};
const ListParams = z.looseObject({ cursor: z.string().optional() });
const PollParams = z.looseObject({
  ...Subscription,
  maxEvents: z.number().int().positive().optional(),
  maxAgeMs: z.number().int().nonnegative().optional(),
});
const StreamParams = z.looseObject({
  ...Subscription,
  maxAgeMs: z.number().int().nonnegative().optional(),
});
const WebhookParams = z.looseObject({ name: z.string().min(1) });

/** The extension exists on the 2026-07-28 wire only, upstream and here. */
const MODERN = ['modern'] as const;

/**
 * The Events extension (`io.modelcontextprotocol/events`) of a server whose providers include
 * proxies, for `server.use(...)`, announced on the modern wire while a connected upstream declares
 * it. `events/list` gives every such upstream's event types, each named as its entry's tools are
 * (in `providers()` order; a name an earlier entry lists hides a later one's), offering poll and
 * push only. `events/poll` and `events/stream` go to the upstream listing the name, under its own
 * name, on the connection the caller's calls run on; every cursor the caller gets is the upstream's
 * sealed with the entry, the type, the arguments and the caller's principal (see `RelayCursors`),
 * so it opens for that subscription of that caller only. `events/subscribe` and
 * `events/unsubscribe` are refused (-32014): a relayed webhook would have the upstream call any URL
 * a caller names, on the gateway's behalf.
 */
export function relayEvents(
  providers: () => Iterable<Provider>,
  options: EventsRelayOptions = {},
): Extension {
  const serving = (): ProxyEvents[] =>
    [...providers()]
      .filter((provider) => provider instanceof ProxyProvider)
      .map((proxy) => proxy.events)
      .filter((events) => events.declared);
  const cursors = new RelayCursors(options.cursors);
  const shares = new StreamShares(
    options.maxStreamsPerClient ?? DEFAULT_RELAYED_STREAMS_PER_CLIENT,
  );
  const open = new Set<RelayedEventStream>();

  const route = async (name: string, args: unknown, call: ExtensionCall): Promise<StreamRoute> => {
    for (const events of serving()) {
      const upstreamName = await events.resolve(name);
      if (upstreamName === undefined) continue;
      const binding: RelayedBinding = {
        upstream: events.upstreamName,
        name,
        arguments: (args ?? {}) as Record<string, unknown>,
        principal: call.principal,
      };
      return { events, upstreamName, binding };
    }
    throw unknownRelayedType(name);
  };
  const unwrapped = (cursor: string | null | undefined, to: StreamRoute) =>
    cursor == null ? Promise.resolve(null) : cursors.unwrap(cursor, to.binding);
  const rewrapped = async (occurrence: EventOccurrence, to: StreamRoute): Promise<JsonObject> => ({
    ...(occurrence as unknown as JsonObject),
    name: to.binding.name,
    cursor:
      typeof occurrence.cursor === 'string'
        ? await cursors.wrap(occurrence.cursor, to.binding)
        : null,
  });

  return {
    id: EVENTS_EXTENSION,
    settings: (era) => (era === 'modern' && serving().length > 0 ? {} : undefined),
    methods: {
      'events/list': extensionMethod({
        params: ListParams,
        eras: MODERN,
        handle: async (params, _call, runtime) => {
          const listing = serving();
          // A first page reads every upstream afresh; the pages after it page through that read.
          if (params.cursor === undefined)
            await Promise.all(listing.map((events) => events.refresh()));
          const page = paginate(firstOfEachName(listing), params.cursor, runtime.pageSize);
          const result: JsonObject = { events: page.items };
          if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
          return result;
        },
      }),
      'events/poll': extensionMethod({
        params: PollParams,
        eras: MODERN,
        handle: async (params, call) => {
          const to = await route(params.name, params.arguments, call);
          const cursor = await unwrapped(params.cursor, to);
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
          if (polled.events.length > maxEvents)
            throw tooLongAnswer(to.events.upstreamName, maxEvents);
          return {
            events: await Promise.all(polled.events.map((occurrence) => rewrapped(occurrence, to))),
            cursor: polled.cursor === null ? null : await cursors.wrap(polled.cursor, to.binding),
            truncated: polled.truncated,
            hasMore: polled.hasMore,
            nextPollMs: polled.nextPollMs,
          };
        },
      }),
      'events/stream': extensionMethod({
        params: StreamParams,
        eras: MODERN,
        longLived: true,
        handle: async (params, call) => {
          const to = await route(params.name, params.arguments, call);
          const cursor = await unwrapped(params.cursor, to);
          const release = shares.admit(call.principal?.id ?? call.client ?? 'anonymous', () =>
            tooManyRelayedStreams(shares.max),
          );
          const stream = new RelayedEventStream(call, to, cursors);
          open.add(stream);
          try {
            return await stream.run({ cursor, maxAgeMs: params.maxAgeMs });
          } finally {
            open.delete(stream);
            release();
          }
        },
      }),
      'events/subscribe': extensionMethod({
        params: WebhookParams,
        eras: MODERN,
        handle: async (params, call) => {
          await route(params.name, {}, call);
          throw webhookNotRelayed(params.name);
        },
      }),
      'events/unsubscribe': extensionMethod({
        params: WebhookParams,
        eras: MODERN,
        handle: async (params, call) => {
          await route(params.name, {}, call);
          throw webhookNotRelayed(params.name);
        },
      }),
    },
    close: async () => {
      for (const stream of [...open]) stream.closeGracefully();
    },
  };
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
