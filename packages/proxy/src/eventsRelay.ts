import { EVENTS_EXTENSION } from '@rondo/client';
import {
  extensionMethod,
  type Extension,
  type Provider,
  type RequestStateOptions,
} from '@rondo/core';
import { z } from 'zod';
import { ProxyProvider } from './proxyProvider.js';
import { RelayCursors } from './relayCursors.js';
import { RelayedEventRequests } from './relayedEventRequests.js';
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
  const requests = new RelayedEventRequests(
    serving,
    new RelayCursors(options.cursors),
    new StreamShares(options.maxStreamsPerClient ?? DEFAULT_RELAYED_STREAMS_PER_CLIENT),
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
        params: WebhookParams,
        eras: MODERN,
        handle: (params, call) => requests.refuseWebhook(params.name, call),
      }),
      'events/unsubscribe': extensionMethod({
        params: WebhookParams,
        eras: MODERN,
        handle: (params, call) => requests.refuseWebhook(params.name, call),
      }),
    },
    close: async () => requests.closeAll(),
  };
}
