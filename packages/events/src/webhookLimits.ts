/** The bounds and pacing of webhook delivery, resolved from `events({ webhooks })`. */
export interface WebhookLimits {
  /** Unexpired webhook subscriptions one principal may hold (a new one past it is refused). */
  readonly maxSubscriptionsPerPrincipal: number;
  /** Attempts at one delivery, the first included, before it is dropped. */
  readonly maxAttempts: number;
  /** The wait before the first retry (ms), doubled for each further one. */
  readonly retryDelayMs: number;
  /** The longest wait between two attempts (ms). */
  readonly maxRetryDelayMs: number;
  /** Deliveries waiting for one subscription; past it the oldest waiting one is dropped. */
  readonly maxPendingPerSubscription: number;
  /** The most time a callback may take to answer one attempt (ms). */
  readonly timeoutMs: number;
  /** A subscription's lifetime when `events/subscribe` names no `ttlMs` (ms). */
  readonly defaultTtlMs: number;
  /** The longest lifetime a subscription is given, whatever `ttlMs` asks (ms). */
  readonly maxTtlMs: number;
}

/** The defaults of {@link WebhookLimits}. */
export const DEFAULT_WEBHOOK_LIMITS: WebhookLimits = {
  maxSubscriptionsPerPrincipal: 100,
  maxAttempts: 5,
  retryDelayMs: 1_000,
  maxRetryDelayMs: 60_000,
  maxPendingPerSubscription: 100,
  timeoutMs: 10_000,
  defaultTtlMs: 60 * 60_000,
  maxTtlMs: 24 * 60 * 60_000,
};
