import {
  createServer,
  type Endpoint,
  type RondoServer,
  type ServerOptions,
  type SharedState,
  type StateKey,
} from '@rondo/core';
import {
  createPrologProvider,
  prologEvents,
  prologSkills,
  type PrologProvider,
  type PrologProviderOptions,
} from '@rondo/logtalk-bridge';
import { composeEndpoint } from '@rondo/server/endpoint';
import type { EventsOptions } from '@rondo/events';
import { tasks } from '@rondo/tasks';

/** Options of {@link createLogtalkHost}: the bridge's, plus the server's identity. */
export interface LogtalkHostOptions extends PrologProviderOptions {
  /** The server name clients see; default `rondo-logtalk`. */
  serverName?: string;
  /** The server version clients see; default this package's version. */
  serverVersion?: string;
  /** The server description clients see (2025-11-25 on); default none. */
  serverDescription?: string;
  /** The server title clients see; default `<provider name> (rondo-logtalk)`. */
  serverTitle?: string;
  /** Where the server's own diagnostics go; default standard error. */
  serverLog?: ServerOptions['log'];
  /** The requestState key ring; default `RONDO_STATE_KEYS` or `RONDO_STATE_KEY`, else a random key. */
  stateKeys?: StateKey[];
  /** State shared with the other replicas behind one balancer (`@rondo/redis`). */
  shared?: SharedState;
}

/** A Prolog provider composed into a server and an endpoint that serves both eras. */
export interface LogtalkHost {
  provider: PrologProvider;
  server: RondoServer;
  /** Hand this to a transport (`serveStdio`, `serveHttp`, `serveWebSocket`). */
  endpoint: Endpoint;
}

/** The revisions the legacy era serves, also listed by `server/discover` for clients to fall back. */
const LEGACY_REVISIONS = ['2025-11-25', '2025-06-18'];

/**
 * Starts the Prolog workers (loading the files in each; a load error throws a `PrologLoadError`),
 * and composes `createServer().provider(...)` with an endpoint serving the modern (2026-07-28)
 * and the legacy (2025-11-25, 2025-06-18) eras. The endpoint is ready when this resolves.
 */
export async function createLogtalkHost(options: LogtalkHostOptions): Promise<LogtalkHost> {
  const {
    serverName,
    serverVersion,
    serverDescription,
    serverTitle,
    serverLog,
    stateKeys,
    shared,
    ...bridge
  } = options;
  const provider = await createPrologProvider(bridge);
  try {
    const server = createServer({
      name: serverName ?? 'rondo-logtalk',
      version: serverVersion ?? '0.1.0',
      title: serverTitle ?? `${provider.name} (rondo-logtalk)`,
      ...(serverDescription !== undefined ? { description: serverDescription } : {}),
      ...(serverLog ? { log: serverLog } : {}),
      ...(stateKeys ? { requestState: { keys: stateKeys } } : {}),
      ...(shared ? { shared } : {}),
    })
      .provider(provider)
      // A predicate declared with task_support/2 runs as a task for a modern client.
      .use(tasks());
    if (provider.skills.length > 0) server.use(prologSkills(provider.skills));
    // Event types declared with events/1; workers raise occurrences with mcp_emit/2,3.
    if (provider.events.length > 0) server.use(prologEvents(provider, eventsOptions(options)));
    const endpoint = composeEndpoint(server, { modern: { alsoSupported: LEGACY_REVISIONS } });
    await endpoint.ready();
    return { provider, server, endpoint };
  } catch (failure) {
    // A server that cannot be made (a short requestState key, say) must not leave workers running.
    await provider.close();
    throw failure;
  }
}

/**
 * How the provider's events are served: cursors sealed with the host's state keys, which replicas
 * share (the occurrences and webhook subscriptions go to the shared state by themselves).
 */
function eventsOptions({ stateKeys }: LogtalkHostOptions): EventsOptions {
  return stateKeys ? { cursors: { keys: stateKeys } } : {};
}
