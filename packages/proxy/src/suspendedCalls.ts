import { randomBytes } from 'node:crypto';
import type { UpstreamCall } from './upstreamCall.js';

/** Bounds of the suspension table. */
export interface SuspensionLimits {
  /** Suspended calls held at most (all upstreams of one provider). Default 1,000. */
  readonly maxSuspended?: number;
  /** How long a suspended call waits for the client's retry (ms). Default 300,000 (5 minutes). */
  readonly suspendedTtlMs?: number;
}

interface Suspension {
  readonly call: UpstreamCall;
  readonly owner: string | undefined;
  readonly timer: NodeJS.Timeout;
}

/** Why a suspended call could not be resumed. */
export type ResumeFailure = 'unknown' | 'other-owner';

/**
 * Upstream calls waiting between rounds for a downstream client's answers, by a random id that the
 * round's sealed `requestState` carries. Bounded in count (a full table refuses a new suspension),
 * and each expires: its upstream call is cancelled and a later retry is told it expired.
 */
export class SuspendedCalls {
  private readonly held = new Map<string, Suspension>();
  private readonly max: number;
  private readonly ttlMs: number;

  constructor(limits: SuspensionLimits = {}) {
    this.max = limits.maxSuspended ?? 1000;
    this.ttlMs = limits.suspendedTtlMs ?? 300_000;
  }

  /** Suspended calls now. */
  get size(): number {
    return this.held.size;
  }

  /** How long a suspension lives (ms). */
  get ttl(): number {
    return this.ttlMs;
  }

  /** Holds `call` for `owner` (the principal's id); `undefined` when the table is full. */
  hold(call: UpstreamCall, owner: string | undefined): string | undefined {
    if (this.held.size >= this.max) return undefined;
    const id = randomBytes(18).toString('base64url');
    const timer = setTimeout(() => {
      this.held.delete(id);
      call.abandon(
        `The client did not answer within ${this.ttlMs} ms; the upstream call was cancelled`,
      );
    }, this.ttlMs);
    timer.unref();
    this.held.set(id, { call, owner, timer });
    return id;
  }

  /** Takes the call `id` back for `owner`'s retry. */
  take(id: string, owner: string | undefined): UpstreamCall | ResumeFailure {
    const suspension = this.held.get(id);
    if (!suspension) return 'unknown';
    if (suspension.owner !== owner) return 'other-owner';
    this.held.delete(id);
    clearTimeout(suspension.timer);
    return suspension.call;
  }

  /** Cancels every suspended call (the provider closes). */
  clear(reason: string): void {
    for (const { call, timer } of this.held.values()) {
      clearTimeout(timer);
      call.abandon(reason);
    }
    this.held.clear();
  }
}
