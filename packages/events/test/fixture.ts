import { createServer, text, type RondoServer } from '@rondo/server';
import { z } from 'zod';
import { events, type EventsOptions, type ServerEvents } from '../src/index.js';

/** A server with the event types the wire tests use, and a tool that raises `test_event`. */
export function eventsServer(options: EventsOptions = {}): {
  server: RondoServer;
  events: ServerEvents;
} {
  const server = createServer({ name: 'events-test', version: '1.0.0' });
  const served = events(options)
    .event('test_event', {
      description: 'A test event raised by emit_test_event',
      payload: z.object({ message: z.string() }),
      replay: { count: 5 },
    })
    .event('channel_message', {
      description: 'A message posted in a channel',
      input: z.object({ channel: z.string().optional() }),
      payload: z.object({ channel: z.string(), text: z.string() }),
    })
    .event('push_only', {
      description: 'Delivered on push streams only',
      payload: z.object({ n: z.number() }),
      modes: ['push'],
    });
  server.use(served);
  server.tool(
    'emit_test_event',
    { description: 'Raises test_event', input: z.object({ message: z.string() }) },
    async ({ message }) => text(await served.emit('test_event', { message })),
  );
  return { server, events: served };
}
