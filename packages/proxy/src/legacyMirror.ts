import type { EraChoice, ServerFacts } from '@rondo/client';
import { LinkPool, type UpstreamLease } from './linkPool.js';
import type { UpstreamLink } from './upstreamLink.js';

/** How long a proxy keeps its legacy mirror connection. */
export interface MirrorLimits {
  /**
   * How long the legacy-era connection a mirroring proxy opened for its legacy callers (see
   * `ProxyOptions.era`) is kept with no call on it before it is closed (ms); the next legacy call
   * opens it again. Default 300,000.
   */
  readonly mirrorIdleMs?: number;
}

/** The legacy revisions a mirror connection may speak, newest first. */
const LEGACY_REVISIONS: readonly EraChoice[] = ['2025-11-25', '2025-06-18'];

/** The one key of the mirror's pool: it holds at most one connection. */
const MIRROR = 'legacy mirror';

/**
 * The second connection of a proxy whose upstream serves both eras, in the legacy era, for its
 * legacy callers: each caller then reaches the upstream in its own era, so a tool that asks its
 * client inside a call serves a legacy caller exactly as it would directly. It costs nothing until
 * used: it is made at the first legacy call, kept while a call uses it and for
 * {@link MirrorLimits.mirrorIdleMs} after, then closed (for a stdio upstream, its second process
 * ends).
 */
export class LegacyMirror {
  private readonly pool: LinkPool;
  /** The revision the next connection made speaks (the upstream's newest legacy one). */
  private revision: EraChoice = LEGACY_REVISIONS[0]!;

  constructor(name: string, make: (revision: EraChoice) => UpstreamLink, limits: MirrorLimits) {
    this.pool = new LinkPool(name, () => make(this.revision), {
      maxIsolatedSessions: 1,
      isolatedIdleMs: limits.mirrorIdleMs ?? 300_000,
    });
  }

  /**
   * The legacy revision a mirror speaks to an upstream connected with `facts`: its newest legacy
   * one, when it connected in the modern era and lists one; `undefined` otherwise (a legacy
   * upstream needs no mirror, a modern-only one cannot have one).
   */
  static revisionFor(facts: ServerFacts | undefined): EraChoice | undefined {
    if (facts?.era !== 'modern') return undefined;
    return LEGACY_REVISIONS.find((revision) => facts.supportedVersions.includes(revision));
  }

  /** Mirror connections open now: 0 or 1. */
  get open(): number {
    return this.pool.size;
  }

  /** The mirror connection, made in `revision` when none is open; released by the lease. */
  lease(revision: EraChoice): Promise<UpstreamLease> {
    this.revision = revision;
    return this.pool.lease(MIRROR);
  }

  /** Closes the mirror connection. */
  close(): Promise<void> {
    return this.pool.close();
  }
}
