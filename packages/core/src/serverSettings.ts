import type { CachePolicy } from './definitions.js';
import { DEFAULT_MAX_ARGUMENT_DEPTH, DEFAULT_MAX_PAGE_BYTES } from './limits.js';
import { RequestStateSealer } from './requestState.js';
import type { ServerInfo, ServerOptions } from './serverTypes.js';

/** A server's options with every default applied: what the server and its eras read. */
export interface ServerSettings {
  readonly info: ServerInfo;
  readonly log: (level: 'info' | 'warning' | 'error', message: string) => void;
  readonly sealer: RequestStateSealer;
  readonly roundLimit: number;
  readonly pageSize: number;
  readonly maxPageBytes: number;
  readonly maxArgumentDepth: number;
  readonly defaultCachePolicy: CachePolicy;
}

/**
 * Reads a server's options once, so the defaults live in one place: rounds 10, pages of 100
 * items and at most 4 MiB, results not cached, log lines on stderr.
 */
export function serverSettings(options: ServerOptions): ServerSettings {
  const {
    requestState,
    roundLimit,
    pageSize,
    maxPageBytes,
    defaultCachePolicy,
    log: given,
    limits,
    shared,
    serverCard: _card,
    ...info
  } = options;
  // console.error rather than process.stderr: the core also runs where there is no `process`.
  const log = given ?? ((level, message) => console.error(`[rondo ${level}] ${message}`));
  const sealer = new RequestStateSealer({
    warn: (m) => log('warning', m),
    ...(shared?.usedStates ? { usedStates: shared.usedStates } : {}),
    ...requestState,
  });
  return {
    info,
    log,
    sealer,
    roundLimit: roundLimit ?? 10,
    pageSize: pageSize ?? 100,
    maxPageBytes: maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES,
    maxArgumentDepth: limits?.maxArgumentDepth ?? DEFAULT_MAX_ARGUMENT_DEPTH,
    defaultCachePolicy: defaultCachePolicy ?? { ttlMs: 0, cacheScope: 'private' },
  };
}
