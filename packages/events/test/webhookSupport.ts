import { Client, httpTransport } from '@rondo/client';
import { createServer, serve } from '@rondo/server';
import { z } from 'zod';
import { events, type WebhookOptions } from '../src/index.js';

const RESOURCE = 'http://127.0.0.1/mcp';

/** A served events server with webhook delivery, bearer tokens naming principals, and its clock. */
export interface WebhookServer {
  readonly url: string;
  /** The server's clock: subscriptions lapse and deliveries are stamped by it. */
  readonly clock: { now: number };
  /** Raises `test_event` with `message`; for `room` only `channel_message` subscriptions of it. */
  emit(message: string): Promise<string>;
  emitInRoom(room: string, text: string): Promise<string>;
  /** A connected 2026-07-28 client whose bearer token is `principal`. */
  client(principal: string): Promise<Client>;
  close(): Promise<void>;
}

/**
 * Serves `test_event` (poll and webhook), `room_message` (webhook, arguments `{ room }`) and
 * `poll_only` over
 * real HTTP on 127.0.0.1; `auth: false` serves without authentication (no caller has a principal).
 */
export async function startWebhookServer(
  webhooks: WebhookOptions,
  auth = true,
): Promise<WebhookServer> {
  const clock = { now: Date.now() };
  const server = createServer({ name: 'webhook-test', version: '1.0.0' });
  const served = events({ webhooks, now: () => clock.now })
    .event('test_event', {
      description: 'A test event',
      payload: z.object({ message: z.string() }),
      modes: ['poll', 'webhook'],
    })
    .event('room_message', {
      description: 'A message posted in a room',
      input: z.object({ room: z.string() }),
      payload: z.object({ room: z.string(), text: z.string() }),
      modes: ['webhook'],
    })
    .event('poll_only', {
      description: 'Offered by poll only',
      payload: z.object({ n: z.number() }),
      modes: ['poll'],
    });
  server.use(served);
  const running = await serve(server, {
    transport: 'http',
    port: 0,
    quiet: true,
    ...(auth
      ? {
          auth: {
            resource: RESOURCE,
            authorizationServers: ['https://auth.example'],
            verifyToken: (token: string) => ({ subject: token, scopes: [], audience: RESOURCE }),
          },
        }
      : {}),
  });
  const clients: Client[] = [];
  return {
    url: running.url,
    clock,
    emit: (message) => served.emit('test_event', { message }),
    emitInRoom: (room, said) =>
      served.emit('room_message', { room, text: said }, { match: { room } }),
    async client(principal) {
      const client = new Client({
        era: '2026-07-28',
        transport: httpTransport({
          url: running.url,
          headers: { authorization: `Bearer ${principal}` },
        }),
      });
      await client.connect();
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
      await running.close();
    },
  };
}
