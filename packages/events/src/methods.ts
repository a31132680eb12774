import type { JsonObject } from '@rondo/protocol';
import { extensionMethod, type ExtensionCall, type ExtensionMethod } from '@rondo/core';
import { paginate } from '@rondo/core/internal';
import type { EventsHost } from './eventsHost.js';
import { poll } from './poll.js';
import { PushStream } from './pushStream.js';
import { Subscription } from './subscription.js';
import { subscribeWebhook, unsubscribeWebhook, type WebhookHost } from './webhookSubscriptions.js';
import {
  ListEventsParams,
  PollEventsParams,
  StreamEventsParams,
  SubscribeEventsParams,
  UnsubscribeEventsParams,
  type SubscriptionRequest,
} from './wire.js';

/** The extension exists on the 2026-07-28 wire only: a legacy caller never sees its methods. */
const MODERN = ['modern'] as const;

/**
 * The extension's methods: `events/list`, `events/poll`, `events/stream`, and the webhook pair
 * `events/subscribe` / `events/unsubscribe`.
 */
export function eventsMethods(
  host: EventsHost,
  webhooks: WebhookHost,
): Record<string, ExtensionMethod> {
  return {
    'events/list': extensionMethod({
      params: ListEventsParams,
      eras: MODERN,
      handle: async (params, call, runtime) => {
        const visible = [...host.types.values()].filter((type) => type.visibleTo(call.principal));
        const page = paginate(
          visible.map((type) => type.descriptor()),
          params.cursor,
          runtime.pageSize,
        );
        const result: JsonObject = { events: page.items };
        if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
        return result;
      },
    }),
    'events/poll': extensionMethod({
      params: PollEventsParams,
      eras: MODERN,
      handle: (params, call) => poll(host, params, call),
    }),
    'events/stream': extensionMethod({
      params: StreamEventsParams,
      eras: MODERN,
      longLived: true,
      handle: (params, call) => stream(host, params, call),
    }),
    'events/subscribe': extensionMethod({
      params: SubscribeEventsParams,
      eras: MODERN,
      handle: (params, call) => subscribeWebhook(host, webhooks, params, call),
    }),
    'events/unsubscribe': extensionMethod({
      params: UnsubscribeEventsParams,
      eras: MODERN,
      handle: (params, call) => unsubscribeWebhook(host, webhooks, params, call),
    }),
  };
}

/** `events/stream`: checks the subscription and the client's share, then runs a `PushStream`. */
async function stream(
  host: EventsHost,
  params: SubscriptionRequest,
  call: ExtensionCall,
): Promise<JsonObject> {
  const subscription = await Subscription.check(host.types, params, call, 'push');
  const start = await subscription.start(params.cursor, host.log, host.codec);
  const pushed = new PushStream(host, subscription, call, start);
  const release = host.streams.admit(call.principal?.id ?? call.client ?? 'anonymous', pushed);
  try {
    return await pushed.run(params.maxAgeMs);
  } finally {
    release();
  }
}
