import { text } from '@rondo/protocol';
import type { RondoServer } from '@rondo/core';
import { events } from '@rondo/events';
import { z } from 'zod';

/** Occurrences of `test_event` a cursor can resume from (outside checkers ask for at least 100). */
const TEST_EVENT_REPLAY = 1000;

/**
 * The Events extension of the fixture, for outside checkers: one event type, `test_event`
 * (arguments `{}`, payload `{ message: string }`, poll and push, a replay of 1,000 occurrences),
 * raised by the tool `emit_test_event` (`{ message }`).
 */
export function addEvents(server: RondoServer): void {
  const served = events().event('test_event', {
    description: 'An occurrence raised by the emit_test_event tool, carrying its message.',
    input: z.object({}),
    payload: z.object({ message: z.string() }),
    modes: ['poll', 'push'],
    replay: { count: TEST_EVENT_REPLAY },
  });
  server.use(served);
  server.tool(
    'emit_test_event',
    {
      description: 'Raises one test_event occurrence with the given message; answers its eventId.',
      input: z.object({ message: z.string() }),
    },
    async ({ message }) => text(await served.emit('test_event', { message })),
  );
}
