import type { JsonObject } from '@rondo/protocol';
import type { ExtensionCall } from '@rondo/core';
import type { EventsHost } from './eventsHost.js';
import { Subscription } from './subscription.js';
import { MAX_POLL_EVENTS, type PollEventsParams } from './wire.js';
import type { z } from 'zod';

/**
 * `events/poll`: the occurrences after the request's cursor that match its arguments, at most
 * `maxEvents` (capped), none older than `maxAgeMs`; without a cursor, none and the cursor of now.
 * The answer's cursor resumes after the last occurrence looked at, so it moves on through quiet
 * periods and past occurrences for other arguments; `truncated` says occurrences after the cursor
 * were forgotten first.
 */
export async function poll(
  host: EventsHost,
  params: z.infer<typeof PollEventsParams>,
  call: ExtensionCall,
): Promise<JsonObject> {
  const subscription = await Subscription.check(host.types, params, call, 'poll');
  const type = subscription.type;
  const nextPollMs = type.nextPollMs ?? host.limits.nextPollMs;
  const from = await subscription.start(params.cursor, host.log, host.codec);
  if (params.cursor === undefined || params.cursor === null) {
    const cursor = await host.codec.seal(from, subscription.binding);
    return { events: [], cursor, truncated: false, hasMore: false, nextPollMs };
  }
  const read = await host.log.read(type.name, from, {
    limit: Math.min(params.maxEvents ?? host.limits.pollEvents, MAX_POLL_EVENTS),
    since: params.maxAgeMs === undefined ? undefined : host.now() - params.maxAgeMs,
    accept: (occurrence) => subscription.wants(occurrence),
  });
  const events = await Promise.all(
    read.occurrences.map((occurrence) =>
      subscription.wire(occurrence, host.codec, read.position.epoch),
    ),
  );
  return {
    events,
    cursor: await host.codec.seal(read.position, subscription.binding),
    truncated: read.truncated,
    hasMore: read.hasMore,
    nextPollMs: read.hasMore ? 0 : nextPollMs,
  };
}
