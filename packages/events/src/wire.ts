import { MetaKey } from '@rondo/protocol';
import { z } from 'zod';

/** The extension's identifier under `capabilities.extensions` (SEP-3415). */
export const EVENTS_EXTENSION = 'io.modelcontextprotocol/events';

/** The `_meta` key every push notification carries: the `events/stream` request's JSON-RPC id. */
export const SUBSCRIPTION_ID_META = MetaKey.subscriptionId;

/** The delivery modes of SEP-3415: `events/poll`, `events/stream` and `events/subscribe` (webhook). */
export type DeliveryMode = 'poll' | 'push' | 'webhook';

/** Every delivery mode this package serves, in the order descriptors list them. */
export const DELIVERY_MODES: readonly DeliveryMode[] = ['poll', 'push', 'webhook'];

/** The modes an event type offers unless it says otherwise (webhook delivery is asked for by name). */
export const DEFAULT_DELIVERY_MODES: readonly DeliveryMode[] = ['poll', 'push'];

/** The header of each webhook delivery naming the subscription it is for. */
export const SUBSCRIPTION_ID_HEADER = 'x-mcp-subscription-id';

/** The notifications of a push stream, by what each says. */
export const PUSH = {
  active: 'notifications/events/active',
  event: 'notifications/events/event',
  heartbeat: 'notifications/events/heartbeat',
  error: 'notifications/events/error',
  terminated: 'notifications/events/terminated',
} as const;

/** The extension's JSON-RPC error codes (the spec's general-purpose codes of the server range). */
export const EventsErrorCode = {
  /** An unknown event type (`data.kind: "event"`). */
  NotFound: -32011,
  /** The principal may not subscribe, or lost access. */
  Forbidden: -32012,
  /** A server limit was reached (`data.limit`, `data.max`). */
  ResourceExhausted: -32013,
  /** A well-formed request for something the event type does not offer (a delivery mode). */
  Unsupported: -32014,
} as const;

/** The most events one `events/poll` answers, whatever `maxEvents` asks. */
export const MAX_POLL_EVENTS = 1000;

const SubscriptionParams = {
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).optional(),
  cursor: z.string().nullable().optional(),
};

/** `events/list` params. */
export const ListEventsParams = z.looseObject({ cursor: z.string().optional() });

/** `events/poll` params: one subscription per request. */
export const PollEventsParams = z.looseObject({
  ...SubscriptionParams,
  maxEvents: z.number().int().positive().optional(),
  maxAgeMs: z.number().int().nonnegative().optional(),
});

/** `events/stream` params: one subscription per request. */
export const StreamEventsParams = z.looseObject({
  ...SubscriptionParams,
  maxAgeMs: z.number().int().nonnegative().optional(),
});

const WebhookTarget = {
  mode: z.literal('webhook'),
  url: z.string().min(1).max(2048),
};

/** `events/subscribe` params: a webhook subscription, created or refreshed (the same key). */
export const SubscribeEventsParams = z.looseObject({
  ...SubscriptionParams,
  delivery: z.looseObject({ ...WebhookTarget, secret: z.string().max(256) }),
  ttlMs: z.number().int().positive().optional(),
});

/** `events/unsubscribe` params: the subscription's key (type, arguments, callback). */
export const UnsubscribeEventsParams = z.looseObject({
  name: SubscriptionParams.name,
  arguments: SubscriptionParams.arguments,
  delivery: z.looseObject(WebhookTarget),
});

/** A subscription as a request names it: the event type, its arguments, where to start. */
export type SubscriptionRequest = z.infer<typeof StreamEventsParams>;
