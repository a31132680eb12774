import {
  createServer,
  type Endpoint,
  type Provider,
  type RondoServer,
  type SessionRelay,
  type SharedState,
  type StateKey,
  type ToolSearchOptions,
} from '@rondo/core';
import { clientCredentials, tokenExchange, type HttpAuthorizer } from '@rondo/client';
import {
  CatalogClaims,
  namespaced,
  proxy,
  relayEvents,
  relaySkills,
  seeCallers,
  withPassThrough,
  type CallObserver,
  type ProxyOptions,
  type RemoteUpstream,
  type UpstreamSpec,
  type UpstreamStatus,
} from '@rondo/proxy';
import { composeEndpoint } from '@rondo/server/endpoint';
import { tasks } from '@rondo/tasks';
import type { GatewayCatalog } from './catalogConfig.js';
import { openApiEntryProvider } from './openApiEntry.js';
import { prologEntryProvider } from './prologEntry.js';
import type { GatewayEntry, GatewayOAuth } from './config.js';
import { LiveEntries, type ReloadOutcome } from './reload.js';

/** Options of {@link createGateway} besides its entries. */
export interface GatewayOptions {
  /** The requestState key ring; default `RONDO_STATE_KEYS` / `RONDO_STATE_KEY`, else a random key. */
  readonly stateKeys?: StateKey[];
  /** State shared with the other replicas behind one balancer (`@rondo/redis`). */
  readonly shared?: SharedState;
  /** Where Prolog workers' and the server's diagnostics go; default standard error. */
  readonly log?: (line: string) => void;
  /** What the proxies report: their connections' states and their calls (see {@link ProxyWatch}). */
  readonly watch?: ProxyWatch;
  /** Derived tools and tool search, from the configuration's catalog keys (`readGatewayCatalog`). */
  readonly catalog?: GatewayCatalog;
  /**
   * The upstreams' webhook subscriptions, held and delivered by the gateway: `on` (the default:
   * https callbacks on public addresses), `off` (refused) or `private` (development: loopback and
   * private addresses too).
   */
  readonly webhooks?: 'on' | 'off' | 'private';
}

/**
 * What an operator's surface hears from the proxied entries: each upstream connection's state
 * changes, each call, and whether catalogs wait for the first connection (default they do;
 * `rondo-gateway` says false unless `--wait-upstreams`: it serves at once and each upstream joins
 * when connected).
 */
export interface ProxyWatch {
  readonly awaitConnection?: boolean;
  readonly onStatus?: (entry: GatewayEntry, status: UpstreamStatus) => void;
  readonly onCall?: CallObserver;
}

/** A gateway: one server whose providers are the configured upstreams, served to both eras. */
export interface Gateway {
  readonly server: RondoServer;
  readonly endpoint: Endpoint;
  /** The providers by entry key, in the configuration's order (a reload changes them). */
  readonly providers: ReadonlyMap<string, Provider>;
  /**
   * Applies a new configuration without a restart (see `LiveEntries`): unchanged entries keep
   * their connections, removed ones finish their calls in flight, added ones join.
   */
  reload(entries: readonly GatewayEntry[]): Promise<ReloadOutcome>;
  /** Resolves once the entries reloads took out have finished their calls and closed. */
  drained(): Promise<void>;
}

/**
 * The extensions a gateway relays from its upstreams: tasks passed through (and those of tools
 * declaring task support), skills, and event types (a prolog entry's too): poll and push relayed,
 * each cursor sealed under the gateway's key ring for its entry and caller, webhooks delivered by
 * the gateway itself.
 */
function useRelays(
  server: RondoServer,
  providers: ReadonlyMap<string, Provider>,
  options: GatewayOptions,
): void {
  server.use(tasks());
  server.use(relaySkills(() => providers.values()));
  const webhooks = options.webhooks ?? 'on';
  server.use(
    relayEvents(() => providers.values(), {
      ...(options.stateKeys ? { cursors: { keys: options.stateKeys } } : {}),
      webhooks: webhooks === 'off' ? false : { allowPrivateCallbacks: webhooks === 'private' },
    }),
  );
}

/** The upstream a proxied entry reaches. */
export function upstreamSpec(entry: GatewayEntry): UpstreamSpec {
  if (entry.kind === 'remote') {
    return {
      url: entry.url,
      ...(entry.transport === 'sse' ? { sse: true } : {}),
      ...(entry.headers ? { headers: entry.headers } : {}),
      ...(entry.oauth ? oauthMembers(entry.oauth) : {}),
    };
  }
  if (entry.kind === 'stdio') {
    return {
      command: entry.command,
      ...(entry.args ? { args: entry.args } : {}),
      ...(entry.env ? { env: entry.env } : {}),
      ...(entry.cwd ? { cwd: entry.cwd } : {}),
    };
  }
  throw new Error(`entry ${entry.key} is not proxied`);
}

/**
 * How a remote entry's `oauth` member logs in: as the gateway (client credentials), or with
 * `tokenExchange` as each caller: the caller's verified token exchanged for one of the upstream's,
 * the gateway the actor (see docs/gateway.md, "Each caller's identity upstream").
 */
function oauthMembers(
  oauth: GatewayOAuth,
): Pick<RemoteUpstream, 'authorizer' | 'callerAuthorizer'> {
  if (!oauth.tokenExchange) return { authorizer: clientCredentials(oauth) };
  const { clientId, clientSecret, issuer, scope } = oauth;
  const login = { clientId, clientSecret, issuer, ...(scope ? { scope } : {}) };
  return {
    callerAuthorizer: (subjectToken: () => string): HttpAuthorizer =>
      tokenExchange({ ...login, subjectToken }),
  };
}

/** True for an entry whose upstream acts for each caller (its `oauth.tokenExchange`). */
function actsForCallers(entry: GatewayEntry): boolean {
  return entry.kind === 'remote' && entry.oauth?.tokenExchange === true;
}

/** The proxy options of an entry: its naming rules and limits. */
export function proxyOptions(entry: GatewayEntry): ProxyOptions {
  return {
    name: entry.key,
    namespace: entry.namespace,
    ...(entry.include ? { include: entry.include } : {}),
    ...(entry.exclude ? { exclude: entry.exclude } : {}),
    ...(entry.includeTags ? { includeTags: entry.includeTags } : {}),
    ...(entry.excludeTags ? { excludeTags: entry.excludeTags } : {}),
    ...(entry.rename ? { rename: entry.rename } : {}),
    ...(entry.timeoutMs !== undefined ? { timeoutMs: entry.timeoutMs } : {}),
    ...(entry.maxConcurrent !== undefined ? { maxConcurrent: entry.maxConcurrent } : {}),
    ...(entry.maxCatalogBytes !== undefined ? { maxCatalogBytes: entry.maxCatalogBytes } : {}),
    ...(entry.era ? { era: entry.era } : {}),
    ...(entry.mirrorIdleMs ? { mirrorIdleMs: entry.mirrorIdleMs } : {}),
    ...isolationOptions(entry),
  };
}

/** An entry's per-caller limits: its isolation and the bounds of the calls waiting for callers. */
function isolationOptions(entry: GatewayEntry): ProxyOptions {
  return {
    ...(entry.isolation ? { isolation: entry.isolation } : {}),
    ...(entry.maxIsolatedSessions ? { maxIsolatedSessions: entry.maxIsolatedSessions } : {}),
    ...(entry.suspendedTtlMs ? { suspendedTtlMs: entry.suspendedTtlMs } : {}),
    ...(entry.maxSuspendedPerClient ? { maxSuspendedPerClient: entry.maxSuspendedPerClient } : {}),
  };
}

/** What the entries of one gateway share (see {@link providerFor}). */
export interface EntryServices {
  /** The replicas' channel: a proxy resumes a suspended call another replica holds through it. */
  readonly relay?: SessionRelay | undefined;
  /** The key ring relayed rounds are sealed under (the gateway's `--state-keys`). */
  readonly relayKeys?: readonly StateKey[] | undefined;
  /** The gateway's table of names and URIs: what an earlier entry offers is left out here. */
  readonly claims?: CatalogClaims | undefined;
  /** What the operator's surface hears of the upstream: its status, its calls, when it joins. */
  readonly watch?: ProxyWatch | undefined;
}

/**
 * The provider of one entry: a proxy, an OpenAPI provider, or a Prolog provider hosted in this
 * process (see `prologEntryProvider`), given what the gateway's entries share (see
 * {@link EntryServices}).
 */
export async function providerFor(
  entry: GatewayEntry,
  log: (line: string) => void,
  { relay, relayKeys, claims, watch = {} }: EntryServices = {},
): Promise<Provider> {
  const entryClaims = claims && { name: entry.key, claims };
  if (entry.kind === 'openapi') {
    return openApiEntryProvider(entry, proxyOptions(entry), entryClaims);
  }
  // Relayed rounds are sealed under the gateway's key ring (its --state-keys, else the variables).
  const shared = {
    ...(relay ? { relay, ...(relayKeys ? { relayKeys } : {}) } : {}),
    ...(claims ? { claims } : {}),
  };
  const { onStatus, onCall } = watch;
  const proxied = (spec: UpstreamSpec): Provider =>
    proxy(spec, {
      ...proxyOptions(entry),
      ...shared,
      onWarning: log,
      awaitConnection: watch.awaitConnection ?? true,
      ...(onStatus ? { onStatus: (status: UpstreamStatus) => onStatus(entry, status) } : {}),
      ...(onCall ? { onCall } : {}),
    });
  if (entry.kind === 'prolog') {
    const named = (provider: Provider) => namespaced(provider, proxyOptions(entry), entryClaims);
    return prologEntryProvider(entry, log, {
      named,
      proxied,
      ...(relayKeys ? { stateKeys: relayKeys } : {}),
    });
  }
  return proxied(upstreamSpec(entry));
}

/** A server of one entry's provider behind its own tool search, for the gateway to mount. */
function searchedEntry(key: string, provider: Provider, search: ToolSearchOptions): RondoServer {
  return createServer({ name: key, version: '0.1.0', catalog: { toolSearch: search } }).provider(
    provider,
  );
}

/**
 * Builds the gateway's server: one provider per entry, composed with the modern (2026-07-28) and
 * the legacy (2025-11-25, 2025-06-18) eras. Proxied upstreams connect in the background: the
 * server is ready at once, and each upstream's tools join the catalog when it is connected (an
 * upstream that is down leaves its tools out until it is back; clients hear `list_changed`); a
 * Prolog file that fails to load throws.
 */
export async function createGateway(
  entries: readonly GatewayEntry[],
  options: GatewayOptions = {},
): Promise<Gateway> {
  const log = options.log ?? ((line: string) => process.stderr.write(`rondo-gateway: ${line}\n`));
  const providers = new Map<string, Provider>();
  const live = new Map<string, GatewayEntry>();
  const server = createServer({
    name: 'rondo-gateway',
    version: '0.1.0',
    // Over HTTP the gateway publishes its card beside its endpoint and the host's catalog.
    serverCard: true,
    ...(options.stateKeys ? { requestState: { keys: options.stateKeys } } : {}),
    ...(options.shared ? { shared: options.shared } : {}),
    ...(options.catalog ? { catalog: options.catalog.options } : {}),
  });
  // One table for the whole catalog: a name or URI two entries offer is served by the first.
  const claims = new CatalogClaims(
    entries.map((entry) => entry.key),
    log,
  );
  const services: EntryServices = {
    ...(options.shared?.relay ? { relay: options.shared.relay } : {}),
    ...(options.stateKeys ? { relayKeys: options.stateKeys } : {}),
    claims,
    ...(options.watch ? { watch: options.watch } : {}),
  };
  useRelays(server, providers, options);
  // An upstream acting for each caller opens its catalog connection on a caller's first request:
  // it hears of each request. Only then: a server with middleware passes no call through.
  let seeing = false;
  const entryProvider = (entry: GatewayEntry): Promise<Provider> => {
    if (actsForCallers(entry) && !seeing) {
      seeing = true;
      server.use(seeCallers(() => providers.values()));
    }
    return providerFor(entry, log, services);
  };
  try {
    for (const entry of entries) {
      const provider = await entryProvider(entry);
      providers.set(entry.key, provider);
      live.set(entry.key, entry);
      const search = options.catalog?.entrySearch.get(entry.key);
      if (search) server.mount(searchedEntry(entry.key, provider, search));
      else server.provider(provider);
    }
  } catch (failure) {
    await server.close();
    throw failure;
  }
  // A modern call to a modern upstream at the caller's revision needs no translation: it passes
  // through (see withPassThrough); everything else takes the pipeline.
  const endpoint = withPassThrough(
    composeEndpoint(server, { modern: { alsoSupported: ['2025-11-25', '2025-06-18'] } }),
    server,
  );
  const reloads = new LiveEntries(server, live, providers, {
    providerFor: entryProvider,
    claims,
  });
  return {
    server,
    endpoint,
    providers,
    reload: (next) => reloads.reload(next),
    drained: () => reloads.drained(),
  };
}
