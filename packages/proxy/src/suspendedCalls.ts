import { randomBytes } from 'node:crypto';
import { ErrorCode, McpError } from '@rondo/protocol';
import type { UpstreamCall } from './upstreamCall.js';

/** Bounds of the suspension table. */
export interface SuspensionLimits {
  /** Suspended calls held at most (all upstreams of one provider). Default 1,000. */
  readonly maxSuspended?: number;
  /**
   * Suspended calls one caller (a principal; an anonymous caller's address) may hold at most, so
   * that one caller's unanswered questions leave room for the others. Default 100.
   */
  readonly maxSuspendedPerClient?: number;
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
 * round's sealed `requestState` carries. Bounded in count, in total and per caller (a full table
 * refuses a new call with a `-32603 … busy` error saying which bound), and each expires: its
 * upstream call is cancelled and a later retry is told it expired.
 */
export class SuspendedCalls {
  private readonly held = new Map<string, Suspension>();
  private readonly perShare = new Map<string, number>();
  private readonly max: number;
  private readonly maxPerShare: number;
  private readonly ttlMs: number;

  constructor(
    private readonly upstreamName: string,
    limits: SuspensionLimits = {},
  ) {
    this.max = limits.maxSuspended ?? 1000;
    this.maxPerShare = limits.maxSuspendedPerClient ?? 100;
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

  /**
   * Throws the busy error a call of `share` gets when it could not be suspended now: the caller
   * holds its share of suspended calls, or the table is full. Checked before a call starts, so a
   * refused call never reaches the upstream.
   */
  assertRoom(share: string): void {
    if ((this.perShare.get(share) ?? 0) >= this.maxPerShare) {
      throw new McpError(
        ErrorCode.InternalError,
        `Upstream "${this.upstreamName}" is busy: this client already has ${this.maxPerShare} calls waiting for its answers (maxSuspendedPerClient); answer or cancel them first`,
        { upstream: this.upstreamName },
      );
    }
    if (this.held.size >= this.max) {
      throw new McpError(
        ErrorCode.InternalError,
        `Upstream "${this.upstreamName}" is busy: the gateway holds ${this.max} calls waiting for their clients (maxSuspended); try again later`,
        { upstream: this.upstreamName },
      );
    }
  }

  /** Holds `call` for `owner` (the principal's id); throws the busy error when there is no room. */
  hold(call: UpstreamCall, owner: string | undefined): string {
    this.assertRoom(call.share);
    const id = randomBytes(18).toString('base64url');
    const timer = setTimeout(() => {
      if (this.remove(id)) {
        call.abandon(
          `The client did not answer within ${this.ttlMs} ms; the upstream call was cancelled`,
        );
      }
    }, this.ttlMs);
    timer.unref();
    this.held.set(id, { call, owner, timer });
    this.perShare.set(call.share, (this.perShare.get(call.share) ?? 0) + 1);
    return id;
  }

  /** Takes the call `id` back for `owner`'s retry. */
  take(id: string, owner: string | undefined): UpstreamCall | ResumeFailure {
    const suspension = this.held.get(id);
    if (!suspension) return 'unknown';
    if (suspension.owner !== owner) return 'other-owner';
    this.remove(id);
    return suspension.call;
  }

  /** Cancels every suspended call (the provider closes). */
  clear(reason: string): void {
    for (const { call, timer } of this.held.values()) {
      clearTimeout(timer);
      call.abandon(reason);
    }
    this.held.clear();
    this.perShare.clear();
  }

  private remove(id: string): boolean {
    const suspension = this.held.get(id);
    if (!suspension) return false;
    this.held.delete(id);
    clearTimeout(suspension.timer);
    const left = (this.perShare.get(suspension.call.share) ?? 1) - 1;
    if (left > 0) this.perShare.set(suspension.call.share, left);
    else this.perShare.delete(suspension.call.share);
    return true;
  }
}
