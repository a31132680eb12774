import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { ConfigError, readConfig, type GatewayEntry } from './config.js';
import type { Gateway } from './gateway.js';
import type { GatewayLog } from './logger.js';

/**
 * Re-reads the configuration file on SIGHUP and, with `watch`, when the file changes (its folder
 * is watched, so an editor that replaces the file is seen too): a valid one is applied by
 * `gateway.reload`, an invalid one refused with its error while the previous one keeps serving.
 * Returns the stop.
 */
export function reloadOnRequest(
  path: string,
  gateway: Gateway,
  log: GatewayLog,
  options: ReloadOptions = {},
): () => void {
  const reload = (why: string): void => void reloadFrom(path, gateway, log, why, options.refuse);
  const onHangup = (): void => reload('SIGHUP');
  process.on('SIGHUP', onHangup);
  let watcher: FSWatcher | undefined;
  if (options.watch === true) {
    const file = basename(path);
    let timer: NodeJS.Timeout | undefined;
    watcher = watch(dirname(resolve(path)), (_event, changed) => {
      if (changed !== file) return;
      // An editor's save is several events: read once they have settled.
      clearTimeout(timer);
      timer = setTimeout(() => reload('the file changed'), 200);
    });
  }
  return () => {
    process.off('SIGHUP', onHangup);
    watcher?.close();
  };
}

/** How reloads are asked for, and what else refuses a configuration. */
export interface ReloadOptions {
  /** Also reload when the file changes (SIGHUP always reloads). */
  readonly watch?: boolean;
  /** Why a valid configuration still can't be served here (as at start), or undefined. */
  readonly refuse?: (entries: readonly GatewayEntry[]) => string | undefined;
}

/**
 * Reads the file and applies it, saying what changed, or why it was refused: invalid, or refused
 * by `refuse` for the way this gateway runs.
 */
export async function reloadFrom(
  path: string,
  gateway: Gateway,
  log: GatewayLog,
  why: string,
  refuse: ReloadOptions['refuse'] = () => undefined,
): Promise<void> {
  let entries;
  try {
    entries = readConfig(path);
  } catch (failure) {
    if (!(failure instanceof ConfigError)) throw failure;
    refused(log, why, failure.message);
    return;
  }
  const refusal = refuse(entries);
  if (refusal !== undefined) {
    refused(log, why, refusal);
    return;
  }
  const outcome = await gateway.reload(entries);
  for (const { key, error } of outcome.failed) {
    log.error('config.entry-failed', `reload: entry "${key}" could not start: ${error}`, {
      upstream: key,
      error,
    });
  }
  const parts = (['added', 'removed', 'changed'] as const)
    .filter((kind) => outcome[kind].length > 0)
    .map((kind) => `${kind} ${outcome[kind].join(', ')}`);
  const summary = parts.length > 0 ? parts.join('; ') : 'no change';
  log.info('config.reloaded', `reloaded ${path} (${why}): ${summary}`, {
    reason: why,
    added: outcome.added.join(','),
    removed: outcome.removed.join(','),
    changed: outcome.changed.join(','),
  });
}

function refused(log: GatewayLog, why: string, error: string): void {
  log.error(
    'config.refused',
    `reload (${why}) refused: ${error}; still serving the previous configuration`,
    { reason: why, error },
  );
}
