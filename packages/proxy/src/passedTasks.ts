import type { ProxyProvider } from './proxyProvider.js';

/** How many upstream tasks a gateway remembers for its callers (`withPassThrough`'s options). */
export interface PassedTaskLimits {
  /** Tasks remembered at most over all callers (default 10,000); past it the oldest is forgotten. */
  readonly maxTasks?: number;
  /**
   * Tasks one principal has remembered at most (default 1,000); past it that principal's oldest is
   * forgotten, so one caller starting tasks without end never pushes out another's.
   */
  readonly maxTasksPerOwner?: number;
  /** The clock, in milliseconds. */
  readonly now?: () => number;
}

/** A task an upstream created for a passed-through call, as the gateway keeps it. */
export interface PassedTask {
  /** The gateway's id for it: what its caller sees. */
  readonly id: string;
  /** The proxy whose upstream holds the task. */
  readonly provider: ProxyProvider;
  /** The upstream's own id, which no caller sees. */
  readonly upstreamId: string;
  /** The principal that created it (`undefined`: anonymous). */
  readonly owner: string | undefined;
  /** When the gateway forgets it (the upstream's `ttlMs` from its creation; none: never). */
  readonly expiresAt: number;
}

/** Random bytes in a gateway task id: 144 bits, as the core's own task ids. */
const ID_BYTES = 18;

/**
 * The upstream tasks a gateway's callers created through passed-through calls, by the gateway's
 * own id for each. An upstream sees every caller of the gateway as one client, so the upstream's
 * task ids are never shown: each task gets an unguessable id of the gateway's, bound to the
 * upstream that holds it and to the principal that created it, and a lookup by another principal,
 * of an expired task or of an id the gateway never gave reads as an unknown task. Bounded by
 * {@link PassedTaskLimits}; kept in this process, which holds the upstream connection.
 */
export class PassedTasks {
  private readonly tasks = new Map<string, PassedTask>();
  private readonly byOwner = new Map<string | undefined, Set<string>>();
  private readonly maxTasks: number;
  private readonly maxTasksPerOwner: number;
  private readonly now: () => number;

  constructor(limits: PassedTaskLimits = {}) {
    this.maxTasks = limits.maxTasks ?? 10_000;
    this.maxTasksPerOwner = limits.maxTasksPerOwner ?? 1_000;
    this.now = limits.now ?? Date.now;
  }

  /** Tasks remembered now. */
  get size(): number {
    return this.tasks.size;
  }

  /**
   * Remembers the task `upstreamId` that `provider`'s upstream created for `owner`, kept for
   * `ttlMs` (the upstream's; `null` or absent: until the limits push it out), and returns the
   * gateway's id for it.
   */
  add(
    provider: ProxyProvider,
    upstreamId: string,
    owner: string | undefined,
    ttlMs: unknown,
  ): string {
    const mine = this.byOwner.get(owner);
    if (mine !== undefined && mine.size >= this.maxTasksPerOwner) {
      this.forget(mine.values().next().value!);
    }
    if (this.tasks.size >= this.maxTasks) this.forget(this.tasks.keys().next().value!);
    // Taken after the evictions, which drop an owner's set once it is empty.
    const own = this.byOwner.get(owner) ?? new Set<string>();
    this.byOwner.set(owner, own);
    const id = newId();
    const lasts = typeof ttlMs === 'number' && ttlMs > 0 ? ttlMs : Number.POSITIVE_INFINITY;
    this.tasks.set(id, { id, provider, upstreamId, owner, expiresAt: this.now() + lasts });
    own.add(id);
    return id;
  }

  /** The task `id` names when it exists, has not expired and belongs to `owner`. */
  find(id: string, owner: string | undefined): PassedTask | undefined {
    const task = this.tasks.get(id);
    if (task === undefined) return undefined;
    if (task.expiresAt <= this.now()) {
      this.forget(id);
      return undefined;
    }
    return task.owner === owner ? task : undefined;
  }

  /** Forgets the task `id` (its upstream no longer knows it). */
  forget(id: string): void {
    const task = this.tasks.get(id);
    if (task === undefined) return;
    this.tasks.delete(id);
    const own = this.byOwner.get(task.owner);
    own?.delete(id);
    if (own?.size === 0) this.byOwner.delete(task.owner);
  }
}

/** A new unguessable id, base64url-encoded (a task id is a bearer name for its task). */
function newId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(ID_BYTES));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_');
}
