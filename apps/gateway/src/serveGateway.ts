import { authFromFlags } from '@rondo/auth';
import type { SharedState } from '@rondo/core';
import { ProxyProvider, type UpstreamCallRecord } from '@rondo/proxy';
import { AuditLog } from './auditLog.js';
import { createRedisState } from '@rondo/redis';
import { serve, type RunningServer } from '@rondo/server';
import type { GatewayCatalog } from './catalogConfig.js';
import type { GatewayArgs } from './cliArgs.js';
import type { GatewayEntry } from './config.js';
import { createGateway, type Gateway } from './gateway.js';
import { GatewayMetrics } from './gatewayMetrics.js';
import type { GatewayLog } from './logger.js';
import { StartError, listenProblem } from './portCheck.js';
import { UpstreamMonitor } from './upstreamMonitor.js';

/** A gateway serving, with what it holds. */
export interface ServingGateway {
  readonly gateway: Gateway;
  readonly running: RunningServer;
  readonly shared: SharedState | undefined;
  readonly audit: AuditLog | undefined;
}

/**
 * Starts serving `entries` as `args` say (their ports checked already, see `checkPorts`): the
 * gateway listens at once and each upstream joins when connected, unless
 * `--wait-upstreams`; `/healthz`, `/readyz` and `/metrics` are served beside the MCP endpoint
 * (http, ws) and on `--admin-port`.
 */
export async function serveGateway(
  args: GatewayArgs,
  entries: readonly GatewayEntry[],
  log: GatewayLog,
  catalog?: GatewayCatalog,
): Promise<ServingGateway> {
  const unverified = actingWithoutAuth(args, entries);
  if (unverified !== undefined) throw new StartError(unverified);
  const monitor = new UpstreamMonitor(log, args.readyWhen);
  const metrics = new GatewayMetrics();
  const audit = args.audit === undefined ? undefined : new AuditLog(args.audit);
  const onCall = (record: UpstreamCallRecord): void => {
    metrics.record(record);
    audit?.record(record);
  };
  const shared = args.redis ? await createRedisState({ url: args.redis }) : undefined;
  const gateway = await createGateway(entries, {
    ...(args.stateKeys ? { stateKeys: args.stateKeys } : {}),
    ...(shared ? { shared } : {}),
    log: log.sink('warn', 'gateway.warning'),
    ...(catalog ? { catalog } : {}),
    webhooks: args.webhooks,
    watch: {
      awaitConnection: args.waitUpstreams,
      onStatus: monitor.update,
      onCall,
    },
  });
  metrics.watch(gateway.providers);
  if (args.waitUpstreams) await allTriedOnce(gateway);
  let running: RunningServer;
  try {
    running = await serve(gateway.endpoint, {
      transport: args.transport,
      host: args.host,
      port: args.port,
      ...(args.path ? { path: args.path } : {}),
      ...(args.allowedHosts && args.transport !== 'stdio'
        ? { allowedHosts: args.allowedHosts }
        : {}),
      ...(args.clientAddressHeader ? { clientAddressHeader: args.clientAddressHeader } : {}),
      // The parser refused --auth-* on stdio, which `serve` types as taking no `auth`.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- tsc needs it
      ...(args.auth ? { auth: authFromFlags(args.auth) as never } : {}),
      operations: {
        readiness: (listener) => monitor.readiness(gateway.providers, listener),
        registry: metrics.registry,
        ...(args.adminPort === undefined ? {} : { adminPort: args.adminPort }),
      },
      quiet: true,
    });
  } catch (failure) {
    await gateway.endpoint.close();
    await shared?.close();
    const code = (failure as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL')
      throw new StartError(listenProblem(failure as NodeJS.ErrnoException, args.host, args.port));
    throw failure;
  }
  const where = running.url ? ` at ${running.url}` : '';
  const admin = running.adminUrl ? `; /healthz, /readyz and /metrics at ${running.adminUrl}` : '';
  log.info(
    'gateway.serving',
    `serving ${entries.length} upstream(s) on ${args.transport}${where}${admin}`,
    { transport: args.transport, url: running.url, adminUrl: running.adminUrl },
  );
  return { gateway, running, shared, audit };
}

/**
 * Why `entries` can't be served as `args` say, or undefined: an entry that acts for each caller
 * (`oauth.tokenExchange`) needs a gateway that verifies callers' tokens (`--auth-*`), or it would
 * have no token to exchange. Checked at start and on every reload.
 */
export function actingWithoutAuth(
  args: Pick<GatewayArgs, 'auth'>,
  entries: readonly GatewayEntry[],
): string | undefined {
  if (args.auth) return undefined;
  const acting = entries.find((entry) => entry.kind === 'remote' && entry.oauth?.tokenExchange);
  if (!acting) return undefined;
  return `entry "${acting.key}": oauth.tokenExchange exchanges each caller's token: serve over http or ws with --auth-* so callers present verified tokens`;
}

/** Resolves once every proxied upstream has connected or failed once (`--wait-upstreams`). */
async function allTriedOnce(gateway: Gateway): Promise<void> {
  const proxies = [...gateway.providers.values()].filter(
    (provider): provider is ProxyProvider => provider instanceof ProxyProvider,
  );
  await Promise.allSettled(proxies.map((proxy) => proxy.upstream.start()));
}
