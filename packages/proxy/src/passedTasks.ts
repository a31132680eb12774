import { ErrorCode, McpError } from '@rondo/protocol';
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
  /**
   * Tasks one caller (a principal; an anonymous caller's address) may have running upstream at
   * once (default 100): the upstream sees every caller as the gateway and gives it one share, so
   * one caller must not spend it all. A call declaring tasks past it is refused with -32603
   * `… busy`; a task counts until a `tasks/get` or `tasks/cancel` shows it finished, or its TTL.
   */
  readonly maxRunningTasksPerOwner?: number;
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
  /** Whose running share it counts in (see {@link PassedTaskLimits.maxRunningTasksPerOwner}). */
  readonly share: string;
}

/** The task statuses after which a task runs no more. */
const FINISHED: ReadonlySet<unknown> = new Set(['completed', 'failed', 'cancelled']);

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
  /** The tasks of each share not known to have finished. */
  private readonly running = new Map<string, Set<string>>();
  private readonly maxTasks: number;
  private readonly maxTasksPerOwner: number;
  private readonly maxRunning: number;
  private readonly now: () => number;

  constructor(limits: PassedTaskLimits = {}) {
    this.maxTasks = limits.maxTasks ?? 10_000;
    this.maxTasksPerOwner = limits.maxTasksPerOwner ?? 1_000;
    this.maxRunning = limits.maxRunningTasksPerOwner ?? 100;
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
    share: string = owner ?? 'anonymous',
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
    this.tasks.set(id, { id, provider, upstreamId, owner, expiresAt: this.now() + lasts, share });
    own.add(id);
    const running = this.running.get(share) ?? new Set<string>();
    this.running.set(share, running.add(id));
    return id;
  }

  /**
   * The -32603 busy error a call of `share` that may become a task gets when that caller already
   * has its running share of tasks upstream; `undefined` when it may go.
   */
  refusal(share: string, upstream: string): McpError | undefined {
    const running = this.running.get(share);
    if (running === undefined) return undefined;
    for (const id of running) {
      const task = this.tasks.get(id);
      if (task === undefined || task.expiresAt <= this.now()) this.forget(id);
    }
    if ((this.running.get(share)?.size ?? 0) < this.maxRunning) return undefined;
    return new McpError(
      ErrorCode.InternalError,
      `Upstream "${upstream}" is busy: this client already has ${this.maxRunning} tasks running there (maxRunningTasksPerOwner); wait for them or cancel them first`,
      { upstream },
    );
  }

  /** Notes what an upstream answer says of task `id`: a finished task runs no more. */
  observe(id: string, status: unknown): void {
    if (!FINISHED.has(status)) return;
    const task = this.tasks.get(id);
    if (task === undefined) return;
    const running = this.running.get(task.share);
    running?.delete(id);
    if (running?.size === 0) this.running.delete(task.share);
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
    const running = this.running.get(task.share);
    running?.delete(id);
    if (running?.size === 0) this.running.delete(task.share);
  }
}

/** A new unguessable id, base64url-encoded (a task id is a bearer name for its task). */
function newId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(ID_BYTES));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_');
}
