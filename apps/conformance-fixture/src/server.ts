import { createServer, type RondoServer, type ServerOptions } from '@rondo/core';
import { tasks, type TaskOptions } from '@rondo/tasks';
import { addPrompts } from './prompts/index.js';
import { addResources } from './resources/index.js';
import { addClientRequestTools } from './tools/clientRequests.js';
import { addContentTools } from './tools/content.js';
import { addDiagnosticTools } from './tools/diagnostics.js';
import { addInputRequiredTools } from './tools/inputRequired.js';
import { addNotificationTools } from './tools/notifications.js';
import { addTaskTools } from './tools/tasks.js';
import { addSkills } from './skills.js';
import { addEvents, type FixtureEventsOptions } from './events.js';

/** Options of {@link createEverythingServer}; the server options override the fixture's identity. */
export interface EverythingServerOptions extends Partial<ServerOptions> {
  /** How often `test://watched-resource` changes (default 3000 ms). */
  watchIntervalMs?: number;
  /** How `test_event`'s webhook delivery treats callbacks. */
  events?: FixtureEventsOptions;
  /** How the Tasks extension keeps the task tools' tasks (default: in memory, or `shared.tasks`). */
  tasks?: TaskOptions;
}

const LIST_CACHE = { ttlMs: 60_000, cacheScope: 'public' } as const;
const READ_CACHE = { ttlMs: 0, cacheScope: 'private' } as const;

/**
 * The everything server of the official conformance suite, built with Rondo's public API only:
 * every tool, prompt, resource, template and completion its scenarios use. Closing the server stops
 * the watched resource's timer.
 */
export function createEverythingServer(options: EverythingServerOptions = {}): RondoServer {
  const { watchIntervalMs = 3000, events, tasks: taskOptions, ...serverOptions } = options;
  const server = createServer({
    name: 'rondo-conformance-fixture',
    version: '0.1.0',
    title: 'Rondo conformance fixture',
    description: 'The MCP conformance suite everything-server surface, served by Rondo',
    instructions:
      'A test server: every tool, prompt and resource exists for a conformance scenario.',
    ...serverOptions,
  });
  addContentTools(server);
  addNotificationTools(server);
  addClientRequestTools(server);
  addInputRequiredTools(server);
  addDiagnosticTools(server);
  addTaskTools(server);
  server.use(tasks(taskOptions));
  addPrompts(server);
  addSkills(server);
  addEvents(server, events);
  const stopWatching = addResources(server, watchIntervalMs);
  server.provider({ name: 'fixture-timers', close: async () => stopWatching() });
  for (const method of [
    'tools/list',
    'prompts/list',
    'resources/list',
    'resources/templates/list',
  ] as const) {
    server.cachePolicy(method, LIST_CACHE);
  }
  server.cachePolicy('resources/read', READ_CACHE);
  return server;
}
