/** How long a fetched key set is kept: `max-age` of its `Cache-Control`, within bounds. */
export interface CacheLifetime {
  defaultMs: number;
  minMs: number;
  maxMs: number;
}

/**
 * The lifetime a response's `Cache-Control` grants, clamped to `[minMs, maxMs]`: `max-age` when
 * given, nothing (the minimum) for `no-store` / `no-cache`, the default otherwise. The minimum keeps
 * an identity provider that forbids caching from being asked on every request.
 */
export function cacheLifetimeMs(header: string | null, lifetime: CacheLifetime): number {
  const directives = (header ?? '')
    .toLowerCase()
    .split(',')
    .map((part) => part.trim());
  let ms = lifetime.defaultMs;
  if (directives.some((d) => d === 'no-store' || d === 'no-cache')) ms = 0;
  else {
    const maxAge = directives.find((d) => d.startsWith('max-age='));
    const seconds = maxAge === undefined ? Number.NaN : Number(maxAge.slice('max-age='.length));
    if (Number.isInteger(seconds) && seconds >= 0) ms = seconds * 1000;
  }
  return Math.min(lifetime.maxMs, Math.max(lifetime.minMs, ms));
}
