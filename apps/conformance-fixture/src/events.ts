import { text } from '@rondo/protocol';
import type { RequestStateOptions, RondoServer } from '@rondo/core';
import { events, type OccurrenceLog, type WebhookStore } from '@rondo/events';
import { z } from 'zod';

/** Occurrences of `test_event` a cursor can resume from (outside checkers ask for at least 100). */
const TEST_EVENT_REPLAY = 1000;

/** Where the fixture keeps `test_event` and how its webhook delivery treats callbacks. */
export interface FixtureEventsOptions {
  /** Accept https callbacks on loopback and private addresses (`RONDO_EVENTS_ALLOW_PRIVATE_CALLBACKS=1`). */
  readonly allowPrivateCallbacks?: boolean;
  /** The replay buffer and live feed (replicas share one: `RedisState.occurrences`); default in memory. */
  readonly log?: OccurrenceLog;
  /** Webhook subscriptions and claims (replicas share one: `RedisState.webhooks`); default in memory. */
  readonly webhookStore?: WebhookStore;
  /** How cursors are sealed; replicas resuming each other's cursors share the keys (`--state-keys`). */
  readonly cursors?: RequestStateOptions;
}

/**
 * The Events extension of the fixture, for outside checkers: one event type, `test_event`
 * (arguments `{}`, payload `{ message: string }`, poll, push and webhook, a replay of 1,000
 * occurrences), raised by the tool `emit_test_event` (`{ message }`). Webhook subscriptions need a
 * principal: serve the fixture with tokens (`RONDO_FIXTURE_TOKENS`).
 */
export function addEvents(server: RondoServer, options: FixtureEventsOptions = {}): void {
  const webhooks = {
    allowPrivateCallbacks: options.allowPrivateCallbacks ?? false,
    ...(options.webhookStore ? { store: options.webhookStore } : {}),
  };
  const shared = {
    ...(options.log ? { log: options.log } : {}),
    ...(options.cursors ? { cursors: options.cursors } : {}),
  };
  const served = events({ ...shared, webhooks }).event('test_event', {
    description: 'An occurrence raised by the emit_test_event tool, carrying its message.',
    input: z.object({}),
    payload: z.object({ message: z.string() }),
    modes: ['poll', 'push', 'webhook'],
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
