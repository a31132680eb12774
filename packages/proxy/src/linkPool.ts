import type { Client } from '@rondo/client';
import { ErrorCode, McpError } from '@rondo/protocol';
import type { IsolationLimits } from './isolation.js';
import type { UpstreamLink } from './upstreamLink.js';

/** A connection lent to one call; `release` gives it back once the call has ended. */
export interface UpstreamLease {
  readonly client: Client;
  release(): void;
}

interface PooledLink {
  readonly link: UpstreamLink;
  calls: number;
  idleTimer: NodeJS.Timeout | undefined;
  lastUsed: number;
}

/**
 * The per-caller upstream sessions of one proxy (see `Isolation`), by caller key: each its own
 * {@link UpstreamLink} (a process on stdio, an MCP session over HTTP), made at its caller's first
 * call, kept while a call uses it and for `isolatedIdleMs` after, then closed. At most
 * `maxIsolatedSessions` are open; a
 * new caller finding them all busy is refused with a `-32603 … busy` error saying why, and an
 * idle one is closed to make room.
 */
export class LinkPool {
  private readonly links = new Map<string, PooledLink>();
  private readonly max: number;
  private readonly idleMs: number;

  constructor(
    private readonly upstreamName: string,
    private readonly make: (key: string) => UpstreamLink,
    limits: IsolationLimits = {},
    /** Told the key of each session closed (an idle one, one evicted, all at `close`). */
    private readonly closed: (key: string) => void = () => undefined,
  ) {
    this.max = limits.maxIsolatedSessions ?? 32;
    this.idleMs = limits.isolatedIdleMs ?? 300_000;
  }

  /** Per-caller sessions open now. */
  get size(): number {
    return this.links.size;
  }

  /** True while caller `key` has a session. */
  has(key: string): boolean {
    return this.links.has(key);
  }

  /** The session of caller `key`, made when it has none; released by the lease. */
  async lease(key: string): Promise<UpstreamLease> {
    const pooled = this.links.get(key) ?? this.open(key);
    pooled.calls += 1;
    pooled.lastUsed = Date.now();
    clearTimeout(pooled.idleTimer);
    pooled.idleTimer = undefined;
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      this.released(key, pooled);
    };
    try {
      return { client: await pooled.link.start(), release };
    } catch (error) {
      release();
      throw error;
    }
  }

  /** Closes every session. */
  async close(): Promise<void> {
    const all = [...this.links];
    this.links.clear();
    for (const [key, pooled] of all) {
      clearTimeout(pooled.idleTimer);
      this.closed(key);
    }
    await Promise.all(all.map(([, pooled]) => pooled.link.close()));
  }

  private open(key: string): PooledLink {
    if (this.links.size >= this.max && !this.evictIdle()) {
      throw new McpError(
        ErrorCode.InternalError,
        `Upstream "${this.upstreamName}" is busy: ${this.max} per-caller sessions are in use (maxIsolatedSessions); try again later`,
        { upstream: this.upstreamName },
      );
    }
    const pooled: PooledLink = {
      link: this.make(key),
      calls: 0,
      idleTimer: undefined,
      lastUsed: 0,
    };
    this.links.set(key, pooled);
    return pooled;
  }

  /** Closes the least recently used session no call uses; false when every one is in use. */
  private evictIdle(): boolean {
    let oldest: [string, PooledLink] | undefined;
    for (const entry of this.links) {
      if (entry[1].calls === 0 && (!oldest || entry[1].lastUsed < oldest[1].lastUsed)) {
        oldest = entry;
      }
    }
    if (!oldest) return false;
    this.drop(oldest[0], oldest[1]);
    return true;
  }

  private released(key: string, pooled: PooledLink): void {
    pooled.calls -= 1;
    pooled.lastUsed = Date.now();
    if (pooled.calls > 0 || this.links.get(key) !== pooled) return;
    pooled.idleTimer = setTimeout(() => this.drop(key, pooled), this.idleMs);
    pooled.idleTimer.unref();
  }

  private drop(key: string, pooled: PooledLink): void {
    clearTimeout(pooled.idleTimer);
    if (this.links.get(key) === pooled) {
      this.links.delete(key);
      this.closed(key);
    }
    void pooled.link.close();
  }
}
