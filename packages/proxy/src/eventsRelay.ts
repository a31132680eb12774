import { EVENTS_EXTENSION } from '@rondo/client';
import {
  extensionMethod,
  type Extension,
  type Provider,
  type RequestStateOptions,
} from '@rondo/core';
import { SubscribeEventsParams, UnsubscribeEventsParams } from '@rondo/events';
import { z } from 'zod';
import { ProxyProvider } from './proxyProvider.js';
import { RelayCursors } from './relayCursors.js';
import { RelayedEventRequests } from './relayedEventRequests.js';
import { RelayedWebhooks, type RelayedWebhookOptions } from './relayedWebhooks.js';
import { StreamShares } from './streamShares.js';
import type { ProxyEvents } from './upstreamEvents.js';

/** Open relayed `events/stream` requests of one caller, unless `maxStreamsPerClient` says otherwise. */
export const DEFAULT_RELAYED_STREAMS_PER_CLIENT = 16;

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
  /**
   * The gateway's own webhook delivery (see `RelayedWebhooks`): its bounds and callback rules, or
   * `false` to refuse `events/subscribe` (-32014). Default: on, with `@rondo/events`' bounds.
   */
  readonly webhooks?: RelayedWebhookOptions | false;
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

/** The extension exists on the 2026-07-28 wire only, upstream and here. */
const MODERN = ['modern'] as const;

/**
 * The Events extension (`io.modelcontextprotocol/events`) of a server whose providers include
 * proxies, for `server.use(...)`, announced on the modern wire while a connected upstream declares
 * it. `events/list` gives every such upstream's event types, each named as its entry's tools are
 * (in `providers()` order; a name an earlier entry lists hides a later one's), offering the
 * upstream's poll and push, and webhook where the upstream offers it with push. `events/poll` and `events/stream` go to the upstream listing the name, under its own
 * name, on the connection the caller's calls run on; every cursor the caller gets is the upstream's
 * sealed with the entry, the type, the arguments and the caller's principal (see `RelayCursors`),
 * so it opens for that subscription of that caller only. Webhook subscriptions (`events/subscribe`,
 * `events/unsubscribe`) are the gateway's own, never the upstream's: an authenticated caller's
 * subscription is checked (https, public addresses only, the secret) and held here, fed by an
 * upstream `events/stream` and delivered signed with the caller's secret (see `RelayedWebhooks`);
 * the upstream never learns a caller's callback or secret, nor calls out on a caller's word.
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
  const webhooks =
    options.webhooks === false
      ? undefined
      : new RelayedWebhooks(options.webhooks ?? {}, cursors, (name, args, caller) =>
          requests.reroute(name, args, caller),
        );
  const requests: RelayedEventRequests = new RelayedEventRequests(
    serving,
    cursors,
    new StreamShares(options.maxStreamsPerClient ?? DEFAULT_RELAYED_STREAMS_PER_CLIENT),
    webhooks,
  );
  return {
    id: EVENTS_EXTENSION,
    settings: (era) => (era === 'modern' && serving().length > 0 ? {} : undefined),
    methods: {
      'events/list': extensionMethod({
        params: ListParams,
        eras: MODERN,
        handle: (params, _call, runtime) => requests.list(params.cursor, runtime.pageSize),
      }),
      'events/poll': extensionMethod({
        params: PollParams,
        eras: MODERN,
        handle: (params, call) => requests.poll(params, call),
      }),
      'events/stream': extensionMethod({
        params: StreamParams,
        eras: MODERN,
        longLived: true,
        handle: (params, call) => requests.stream(params, call),
      }),
      'events/subscribe': extensionMethod({
        params: SubscribeEventsParams,
        eras: MODERN,
        handle: (params, call) => requests.subscribe(params, call),
      }),
      'events/unsubscribe': extensionMethod({
        params: UnsubscribeEventsParams,
        eras: MODERN,
        handle: (params, call) => requests.unsubscribe(params, call),
      }),
    },
    close: () => requests.closeAll(),
  };
}
