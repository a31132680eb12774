import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

/** What `--watch` reloads, and where it reports. */
export interface Reloadable {
  reload(): Promise<void>;
}

/** Where `--watch` tells what became of a reload. */
export interface WatchReport {
  /** New calls run on the new code. */
  reloaded(): void;
  /** The files failed to load (`message` says where and why); the previous code still serves. */
  failed(message: string): void;
}

/**
 * `rondo-logtalk --watch`: reloads the provider when one of its files changes. The directories
 * are watched, not the files, since editors often save by replacing a file. Changes within
 * `settleMs` of each other make one reload. Returns the function that stops watching.
 */
export function watchFiles(
  files: readonly string[],
  provider: Reloadable,
  report: WatchReport,
  settleMs = 150,
): () => void {
  const wanted = new Map<string, Set<string>>();
  for (const file of files.map((f) => resolve(f))) {
    const names = wanted.get(dirname(file)) ?? new Set<string>();
    names.add(basename(file));
    wanted.set(dirname(file), names);
  }
  let timer: NodeJS.Timeout | undefined;
  const changed = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      provider.reload().then(
        () => report.reloaded(),
        (failure: unknown) => report.failed((failure as Error).message),
      );
    }, settleMs);
  };
  const watchers: FSWatcher[] = [...wanted].map(([dir, names]) =>
    watch(dir, (_event, name) => {
      if (name !== null && names.has(name.toString())) changed();
    }),
  );
  return () => {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
  };
}
