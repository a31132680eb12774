import type { Provider } from '@rondo/core';
import type { JsonObject } from '@rondo/protocol';
import { ProxyProvider, type UpstreamStatus } from '@rondo/proxy';
import type { OperationsListener, Readiness } from '@rondo/server';
import type { GatewayEntry } from './config.js';
import type { GatewayLog } from './logger.js';

/**
 * Watches the upstreams' connections for an operator: a progress line per upstream while it
 * starts, one line per failure (the entry, the cause with the upstream's last stderr line, and
 * when it is tried next), and the readiness report `/readyz` serves.
 */
export class UpstreamMonitor {
  private readonly seen = new Map<string, UpstreamStatus['state']>();

  constructor(
    private readonly log: GatewayLog,
    private readonly readyWhen: 'all' | 'any' = 'all',
  ) {}

  /** Hears one state change of `entry`'s connection (`ProxyWatch.onStatus`). */
  readonly update = (entry: GatewayEntry, status: UpstreamStatus): void => {
    const before = this.seen.get(entry.key);
    this.seen.set(entry.key, status.state);
    const fields = { upstream: entry.key, state: status.state };
    switch (status.state) {
      case 'connecting':
        // The first attempt is news; each retry after a failure was announced with the failure.
        if (before === undefined || before === 'idle')
          this.log.info('upstream.starting', `upstream "${entry.key}": starting`, fields);
        else this.log.debug('upstream.retrying', `upstream "${entry.key}": trying again`, fields);
        return;
      case 'connected':
        this.log.info(
          'upstream.connected',
          `upstream "${entry.key}": connected: ${status.server ?? ''} (${status.era ?? ''} ${status.revision ?? ''})`,
          { ...fields, era: status.era, revision: status.revision, server: status.server },
        );
        return;
      case 'down': {
        const seconds = Math.max(
          0,
          Math.ceil(((status.retryAt ?? Date.now()) - Date.now()) / 1000),
        );
        this.log.error(
          'upstream.failed',
          `upstream "${entry.key}" failed: ${status.lastError ?? 'unknown'}; next attempt in ${seconds} s`,
          { ...fields, error: status.lastError, nextAttemptInSeconds: seconds },
        );
        return;
      }
      case 'idle':
      case 'closed':
        return;
    }
  };

  /**
   * The readiness of the gateway's entries: each one's state, era, tool count and last error;
   * ready when all (or, with `readyWhen: 'any'`, any) are connected. A Prolog entry runs in
   * process: it is connected once loaded. The last error carries the upstream's stderr line on the
   * `admin` listener only: beside the MCP endpoint anyone reaching the gateway reads it, as a
   * caller's error does (URLs cut, no stderr).
   */
  async readiness(
    providers: ReadonlyMap<string, Provider>,
    listener: OperationsListener = 'serving',
  ): Promise<Readiness> {
    const upstreams: JsonObject = {};
    let connected = 0;
    for (const [key, provider] of providers) {
      const report = await reportOf(provider, listener);
      if (report.state === 'connected') connected += 1;
      upstreams[key] = report;
    }
    const ready = this.readyWhen === 'all' ? connected === providers.size : connected > 0;
    return { ready, details: { upstreams } };
  }
}

/** One entry's line of the readiness report. */
async function reportOf(provider: Provider, listener: OperationsListener): Promise<JsonObject> {
  if (!(provider instanceof ProxyProvider)) {
    const tools = (await provider.tools?.())?.length ?? 0;
    return { state: 'connected', kind: 'prolog', tools };
  }
  const status = provider.upstream.status;
  const report: JsonObject = { state: status.state, tools: provider.lists.sizes().tools };
  if (status.era !== undefined) report.era = status.era;
  if (status.revision !== undefined) report.revision = status.revision;
  if (status.server !== undefined) report.server = status.server;
  const lastError = listener === 'admin' ? status.lastError : status.lastPublicError;
  if (lastError !== undefined) report.lastError = lastError;
  if (status.retryAt !== undefined) report.nextAttempt = new Date(status.retryAt).toISOString();
  return report;
}
