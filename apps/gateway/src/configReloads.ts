import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { ConfigError, readConfig } from './config.js';
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
  options: { readonly watch?: boolean } = {},
): () => void {
  const reload = (why: string): void => void reloadFrom(path, gateway, log, why);
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

/** Reads the file and applies it, saying what changed, or why it was refused. */
export async function reloadFrom(
  path: string,
  gateway: Gateway,
  log: GatewayLog,
  why: string,
): Promise<void> {
  let entries;
  try {
    entries = readConfig(path);
  } catch (failure) {
    if (!(failure instanceof ConfigError)) throw failure;
    log.error(
      'config.refused',
      `reload (${why}) refused: ${failure.message}; still serving the previous configuration`,
      { reason: why, error: failure.message },
    );
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
