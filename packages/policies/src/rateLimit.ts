import {
  RateLimitedError,
  type McpCall,
  type Middleware,
  type RateLimitStore,
  type RateRule,
  type RateVerdict,
} from '@rondo/core';
import { callerKey, type CallerKeying, type ProxyTrust } from './callerKey.js';
import { AnsweredStates } from './answeredStates.js';
import { MemoryRateLimitStore } from './memoryRateLimitStore.js';

/** Options of {@link rateLimit}. */
export interface RateLimitOptions {
  /** Calls admitted per window (a token bucket's capacity). */
  limit: number;
  /** The window, in ms: `limit` calls per `windowMs`. */
  windowMs: number;
  /** `token-bucket` (default; bursts up to `limit`, refilled evenly) or `sliding-window`. */
  algorithm?: RateRule['algorithm'];
  /** Who is counted (default `principal`; see {@link CallerKeying}). */
  by?: CallerKeying;
  /** How to read the client's address behind your proxies, for `by: 'ip'`. */
  proxy?: ProxyTrust;
  /**
   * What one counter covers: `caller` (every counted call of a caller, default), `method` (one
   * counter per caller and method), `tool` (per caller and tool; other methods per method).
   */
  per?: 'caller' | 'method' | 'tool';
  /** The methods counted (default: every request but `ping`). */
  methods?: readonly string[];
  /** Only calls of these tools are counted (with `tools/call` among `methods`). */
  tools?: readonly string[];
  /** Where counters live (default: this process's memory; `@rondo/redis`'s to share them). */
  store?: RateLimitStore;
  /** Keeps the counters of two limits on one store apart (default: made from the rule). */
  name?: string;
  /**
   * What a failing store means (Redis out of reach): `allow` the call (default; the failure goes
   * to `onStoreError`) or `refuse` it as over the limit, retried after a second.
   */
  whenStoreFails?: 'allow' | 'refuse';
  /** Hears store failures (default: a warning on the console, once per 10 s). */
  onStoreError?: (error: unknown) => void;
  /**
   * How long a retry's `requestState` is remembered as answered, in ms (default 600,000, the
   * server's default `requestState.ttlMs`; set it to yours if you changed that). A retry that
   * brings a state back within this time counts as a new call.
   */
  stateMemoryMs?: number;
}

/** The default `requestState.ttlMs` of a server: a state is remembered as long as it is valid. */
const STATE_MEMORY_MS = 10 * 60_000;

/**
 * A rate limit as middleware: a call over it is refused with -32000 and `data.retryAfterMs` (HTTP
 * 429 with `Retry-After`). A request's first round counts; answering a server's question costs
 * nothing the first time (an MRTR retry bringing a `requestState` this limit has not seen, a legacy
 * elicitation), but a retry that brings back a state it has seen is a new call: replaying a retry
 * runs the handler again, so it is counted. With a shared store the limit holds across every
 * replica: N per minute is N in total, not N per process.
 */
export function rateLimit(options: RateLimitOptions): Middleware {
  const rule: RateRule = {
    algorithm: options.algorithm ?? 'token-bucket',
    limit: positive(options.limit, 'limit'),
    windowMs: positive(options.windowMs, 'windowMs'),
  };
  const store = options.store ?? new MemoryRateLimitStore();
  const by = options.by ?? 'principal';
  const per = options.per ?? 'caller';
  const methods = options.methods ? new Set(options.methods) : undefined;
  const tools = options.tools ? new Set(options.tools) : undefined;
  const name = options.name ?? `${rule.algorithm}:${rule.limit}/${rule.windowMs}`;
  const refuseOnFailure = options.whenStoreFails === 'refuse';
  const report = options.onStoreError ?? throttledWarning();
  const message = `Rate limit exceeded: ${rule.limit} calls per ${rule.windowMs} ms`;
  const answered = new AnsweredStates(
    store,
    name,
    positive(options.stateMemoryMs ?? STATE_MEMORY_MS, 'stateMemoryMs'),
  );
  const failed = (error: unknown): void => {
    report(error);
    if (refuseOnFailure) throw new RateLimitedError(1000, `${message} (the limit store failed)`);
  };
  return async (call, next) => {
    if (!counted(call, methods, tools)) return next();
    const caller = callerKey(call, by, options.proxy);
    if (caller === undefined) return next();
    if (call.round !== 1) {
      const state = call.params.requestState;
      // A legacy round is the server's own request (nothing to replay); a state first seen is
      // the answer to the server's question.
      if (typeof state !== 'string') return next();
      try {
        if (await answered.firstSight(state)) return next();
      } catch (error) {
        failed(error);
        return next();
      }
    }
    const key = `${name}|${caller}${scopeOf(call, per)}`;
    let verdict: RateVerdict;
    try {
      const pending = store.hit(key, rule);
      // The memory store answers at once: no await, no turn of the microtask queue.
      verdict = pending instanceof Promise ? await pending : pending;
    } catch (error) {
      failed(error);
      return next();
    }
    if (!verdict.allowed) throw new RateLimitedError(Math.max(1, verdict.retryAfterMs), message);
    return next();
  };
}

function counted(
  call: McpCall,
  methods: ReadonlySet<string> | undefined,
  tools: ReadonlySet<string> | undefined,
): boolean {
  if (methods ? !methods.has(call.method) : call.method === 'ping') return false;
  if (tools === undefined) return true;
  return call.method === 'tools/call' && tools.has(String(call.params.name));
}

function scopeOf(call: McpCall, per: RateLimitOptions['per']): string {
  if (per === 'caller') return '';
  if (per === 'tool' && call.method === 'tools/call') return `|tool:${String(call.params.name)}`;
  return `|${call.method}`;
}

function positive(value: number, name: string): number {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`rateLimit: ${name} must be > 0`);
  return value;
}

/** A console warning at most once per 10 s, so an outage does not flood the log. */
function throttledWarning(): (error: unknown) => void {
  let last = Number.NEGATIVE_INFINITY;
  return (error) => {
    const now = Date.now();
    if (now - last < 10_000) return;
    last = now;
    const reason = error instanceof Error ? error.message : String(error);
    console.warn(`@rondo/policies: the rate limit store failed, calls pass: ${reason}`);
  };
}
