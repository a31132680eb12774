import { randomBytes } from 'node:crypto';
import {
  createServer,
  type Endpoint,
  type RequestStateOptions,
  type RondoServer,
  type StateKey,
} from '@rondo/core';
import { events } from '@rondo/events';
import { prologEvents } from '@rondo/logtalk-bridge';
import { createRedisState } from '@rondo/redis';
import { composeEndpoint } from '@rondo/server/endpoint';
import { tasks } from '@rondo/tasks';
import { findSwipl, startBirdExpert } from './providers/birds.js';
import { addBakery } from './providers/bakery.js';
import { addClockResource } from './providers/clock.js';
import { addHaikuPrompt } from './providers/haikuPrompt.js';
import { addLamp } from './providers/lamp.js';
import { addPostcardTool } from './providers/postcard.js';
import { startBirdSightings } from './providers/sightings.js';
import { addTeaTimer } from './providers/teaTimer.js';
import { addTripWizard } from './providers/tripWizard.js';
import { addWeatherTemplate } from './providers/weather.js';
import { ServerTraffic, TRAFFIC_CAPACITY } from './serverTraffic.js';

/** The demo's server, composed with both eras, and what it could not start. */
export interface DemoServer {
  server: RondoServer;
  endpoint: Endpoint;
  /** The calls the server handled (the last {@link TRAFFIC_CAPACITY} by default), for `/traffic`. */
  traffic: ServerTraffic;
  /** Human-readable reasons for features that are off (SWI-Prolog missing, say). */
  notices: string[];
  /** Stops the clock and the Prolog workers, and closes the Redis connections. */
  close(): Promise<void>;
}

export interface DemoServerOptions {
  /** Skip the Prolog bird expert even when `swipl` is installed. */
  withoutProlog?: boolean;
  /** How often the clock resource changes (default 5 s). */
  clockIntervalMs?: number;
  /** How many calls the traffic view keeps (default {@link TRAFFIC_CAPACITY}). */
  trafficCapacity?: number;
  /** The Redis server whose state this replica shares with the others behind one balancer. */
  redis?: string;
  /** The requestState key ring; by default `RONDO_STATE_KEYS` or `RONDO_STATE_KEY`, else a random key. */
  stateKeys?: StateKey[];
  /** Where the server's own diagnostics go (stderr by default: stdout may be the protocol). */
  log?: (level: 'info' | 'warning' | 'error', message: string) => void;
}

/**
 * The keys given, else none so that the core reads the environment's; with neither, a random key
 * given explicitly: one demo process needs no shared key, so it should not warn about one.
 */
function stateKeyOptions(keys: StateKey[] | undefined): RequestStateOptions {
  if (keys) return { keys };
  if (process.env.RONDO_STATE_KEYS || process.env.RONDO_STATE_KEY) return {};
  return { key: randomBytes(32) };
}

/**
 * Builds the demo: TypeScript providers for each feature, plus the Prolog bird expert and bird
 * sightings when SWI-Prolog is available, served to modern and legacy clients alike; the Events
 * extension (modern clients only) offers `bird_sighted` (from Prolog) and `clock_tick`.
 */
export async function createDemoServer(options: DemoServerOptions = {}): Promise<DemoServer> {
  const shared = options.redis ? await createRedisState({ url: options.redis }) : undefined;
  const server = createServer({
    name: 'rondo-demo',
    title: 'Rondo demo',
    version: '0.1.0',
    description: 'TypeScript and Prolog providers behind one endpoint, for both MCP eras.',
    instructions:
      'Try send_postcard (elicitation), plan_trip (multi-round), brew_tea (progress), bake_bread (a task), show_lamp (an MCP App), identify_bird and report_sighting (raises the bird_sighted event).',
    requestState: stateKeyOptions(options.stateKeys),
    // A showcase serves its own discovery: the card at /mcp/server-card and the host's catalog.
    serverCard: true,
    ...(shared ? { shared } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  // First registered, so it is the outermost and times everything else the call goes through.
  const traffic = new ServerTraffic(options.trafficCapacity ?? TRAFFIC_CAPACITY);
  server.use(traffic.middleware);
  addPostcardTool(server);
  addTripWizard(server);
  addTeaTimer(server);
  addBakery(server);
  // bake_bread runs as a task for a modern client that declares the Tasks extension.
  server.use(tasks());
  addWeatherTemplate(server);
  addHaikuPrompt(server);
  addLamp(server);

  const notices: string[] = [];
  const swipl = options.withoutProlog ? undefined : findSwipl();
  if (typeof swipl === 'object') notices.push(swipl.reason);
  const [birds, sightings] =
    typeof swipl === 'string'
      ? await Promise.all([startBirdExpert(swipl), startBirdSightings(swipl)])
      : [undefined, undefined];
  for (const started of [birds, sightings]) {
    if (started === undefined) continue;
    if ('reason' in started) notices.push(started.reason);
    else server.provider(started);
  }
  // The Events extension: bird_sighted from the Prolog sightings (when they run), and clock_tick.
  // Cursors are sealed with the requestState keys, so replicas sharing them resume each other's.
  const cursors = { cursors: stateKeyOptions(options.stateKeys) };
  const served =
    sightings !== undefined && !('reason' in sightings)
      ? prologEvents(sightings, cursors)
      : events(cursors);
  const stopClock = addClockResource(server, options.clockIntervalMs, served);
  server.use(served);
  const endpoint = composeEndpoint(server);
  await endpoint.ready();
  return {
    server,
    endpoint,
    traffic,
    notices,
    close: async () => {
      stopClock();
      await server.close();
      await shared?.close();
    },
  };
}
