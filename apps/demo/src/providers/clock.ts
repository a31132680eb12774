import type { RondoServer } from '@rondo/core';
import { contents, textContent } from '@rondo/protocol';

/** The URI of the resource that changes on its own. */
export const CLOCK_URI = 'demo://clock';

/**
 * Registers `demo://clock`, a resource whose contents change every `intervalMs`, and announces each
 * change with `server.resourceUpdated`: legacy subscribers get `notifications/resources/updated`,
 * modern clients get it on their `subscriptions/listen` stream. Returns the function that stops it.
 */
export function addClockResource(server: RondoServer, intervalMs = 5000): () => void {
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
  const timer = setInterval(() => {
    ticks += 1;
    server.resourceUpdated(CLOCK_URI);
  }, intervalMs);
  // The clock alone must never keep the process alive (stdio hosts close stdin to stop us).
  timer.unref();
  return () => clearInterval(timer);
}
