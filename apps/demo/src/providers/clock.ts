import type { RondoServer } from '@rondo/core';
import type { ServerEvents } from '@rondo/events';
import { contents, textContent } from '@rondo/protocol';

/** The URI of the resource that changes on its own. */
export const CLOCK_URI = 'demo://clock';

/** The event type the clock raises at each change (when the demo serves events). */
export const CLOCK_TICK = 'clock_tick';

/**
 * Registers `demo://clock`, a resource whose contents change every `intervalMs`, and announces each
 * change with `server.resourceUpdated`: legacy subscribers get `notifications/resources/updated`,
 * modern clients get it on their `subscriptions/listen` stream. Given the server's Events
 * extension, each change is also a `clock_tick` occurrence, an event that needs nobody to act.
 * Returns the function that stops it.
 */
export function addClockResource(
  server: RondoServer,
  intervalMs = 5000,
  events?: ServerEvents,
): () => void {
  let ticks = 0;
  server.resource(
    CLOCK_URI,
    {
      name: 'clock',
      title: 'Server clock',
      description: `The server time; changes every ${intervalMs / 1000} s (subscribe to it).`,
      mimeType: 'application/json',
    },
    (uri) =>
      contents([
        textContent(
          uri,
          'application/json',
          JSON.stringify({ now: new Date().toISOString(), ticks }),
        ),
      ]),
  );
  events?.event(CLOCK_TICK, {
    title: 'Clock tick',
    description: `The server clock (demo://clock) changed, as it does every ${intervalMs / 1000} s.`,
    payload: {
      type: 'object',
      properties: {
        ticks: { type: 'integer', minimum: 1, description: 'Changes since the server started' },
        now: { type: 'string', description: 'The server time, ISO 8601' },
      },
      required: ['ticks', 'now'],
    },
    // A few minutes of ticks: enough to show a resumed cursor catching up, bounded whatever runs.
    replay: { count: 100, ageMs: 10 * 60_000 },
  });
  const timer = setInterval(() => {
    ticks += 1;
    server.resourceUpdated(CLOCK_URI);
    // A tick the occurrence log refused (a Redis hiccup) is not worth stopping the clock for.
    events?.emit(CLOCK_TICK, { ticks, now: new Date().toISOString() }).catch(() => undefined);
  }, intervalMs);
  // The clock alone must never keep the process alive (stdio hosts close stdin to stop us).
  timer.unref();
  return () => clearInterval(timer);
}
