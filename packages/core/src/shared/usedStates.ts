import { ErrorCode, McpError } from '@rondo/protocol';

/**
 * Where the ids of one-time requestStates already accepted are recorded until they expire
 * (`createServer({ requestState: { oneTime } })`): the processes serving one endpoint share it,
 * so a state accepted by one is refused by every other. `@rondo/redis` implements it.
 */
export interface UsedStateStore {
  /**
   * Records `id` as used until `expiresAt` (milliseconds since the epoch, the state's own
   * expiry). Resolves `true` the first time, `false` when it was recorded already; rejects when
   * the record cannot be kept (the request then fails rather than accept a replay).
   */
  claim(id: string, expiresAt: number): Promise<boolean>;
}

/** The default cap of {@link MemoryUsedStateStore}: ids of one-time states kept at once. */
export const DEFAULT_MAX_USED_STATES = 100_000;

/** How often a full {@link MemoryUsedStateStore} looks for expired ids, at most. */
const PRUNE_EVERY_MS = 1_000;

/**
 * {@link UsedStateStore} in this process: each id kept until its state expires, at most
 * `maxUsedStates` at once. Full of ids whose states are still valid, it refuses the next claim
 * (-32603) rather than forget one: a forgotten id could be replayed.
 */
export class MemoryUsedStateStore implements UsedStateStore {
  private readonly used = new Map<string, number>();
  private prunedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly maxUsedStates = DEFAULT_MAX_USED_STATES,
    private readonly now: () => number = Date.now,
  ) {}

  claim(id: string, expiresAt: number): Promise<boolean> {
    const now = this.now();
    const until = this.used.get(id);
    if (until !== undefined && until >= now) return Promise.resolve(false);
    if (this.used.size >= this.maxUsedStates) this.prune(now);
    if (this.used.size >= this.maxUsedStates)
      return Promise.reject(
        new McpError(
          ErrorCode.InternalError,
          `Too many one-time requestStates in use (limit maxUsedStates: ${this.maxUsedStates}); try again later`,
          { limit: 'maxUsedStates', maxUsedStates: this.maxUsedStates },
        ),
      );
    this.used.set(id, expiresAt);
    return Promise.resolve(true);
  }

  /** Forgets expired ids; a full scan, so done at most once every {@link PRUNE_EVERY_MS}. */
  private prune(now: number): void {
    if (now - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = now;
    for (const [id, until] of this.used) if (until < now) this.used.delete(id);
  }
}
