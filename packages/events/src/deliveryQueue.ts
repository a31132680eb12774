/** One delivery waiting for its subscription's callback. */
export interface PendingDelivery {
  /** The occurrence's id: the Standard Webhooks `webhook-id`, the same on every attempt. */
  readonly eventId: string;
  /** The JSON body, signed anew on each attempt. */
  readonly body: string;
}

/** What an attempt came to. */
export type AttemptOutcome = 'delivered' | 'retry' | 'drop' | 'unsubscribed';

/** How a queue attempts, waits and counts. */
export interface QueueSettings {
  readonly maxPending: number;
  readonly maxAttempts: number;
  readonly retryDelayMs: number;
  readonly maxRetryDelayMs: number;
  /** Makes one attempt at `delivery`. */
  readonly attempt: (delivery: PendingDelivery) => Promise<AttemptOutcome>;
  /** Called when the queue has nothing left or was closed (it may be forgotten). */
  readonly idle: () => void;
}

/**
 * The deliveries of one subscription, in order, one attempt at a time: a failed attempt is
 * retried after a wait that doubles (up to `maxRetryDelayMs`), at most `maxAttempts` times in all;
 * past `maxPending` waiting deliveries the oldest waiting one is dropped. An `unsubscribed`
 * outcome (the subscription was removed, lapsed or refused by its callback) empties the queue.
 */
export class DeliveryQueue {
  private readonly pending: PendingDelivery[] = [];
  private running = false;
  private closed = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private wake: (() => void) | undefined;
  /** Deliveries dropped (out of attempts, or pushed out by newer ones). */
  dropped = 0;

  constructor(private readonly settings: QueueSettings) {}

  /** The deliveries waiting, the one being attempted included. */
  get size(): number {
    return this.pending.length;
  }

  /** Queues one delivery and starts the queue when it is idle. */
  add(delivery: PendingDelivery): void {
    if (this.closed) return;
    this.pending.push(delivery);
    if (this.pending.length > this.settings.maxPending) {
      // The head may be in flight: drop the oldest one that is only waiting.
      this.pending.splice(this.running ? 1 : 0, 1);
      this.dropped += 1;
    }
    if (!this.running) void this.run();
  }

  /** Drops everything and stops any wait. */
  close(): void {
    this.closed = true;
    this.pending.length = 0;
    clearTimeout(this.timer);
    this.wake?.();
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      while (!this.closed && this.pending.length > 0) await this.deliverHead();
    } finally {
      this.running = false;
      this.settings.idle();
    }
  }

  private async deliverHead(): Promise<void> {
    const delivery = this.pending[0]!;
    for (let attempt = 1; !this.closed; attempt += 1) {
      const outcome = await this.settings.attempt(delivery).catch(() => 'retry' as const);
      if (outcome === 'unsubscribed') return this.close();
      if (outcome === 'delivered' || outcome === 'drop' || attempt >= this.settings.maxAttempts) {
        if (outcome !== 'delivered') this.dropped += 1;
        break;
      }
      await this.pause(
        Math.min(this.settings.retryDelayMs * 2 ** (attempt - 1), this.settings.maxRetryDelayMs),
      );
    }
    if (this.pending[0] === delivery) this.pending.shift();
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
      this.timer = setTimeout(resolve, ms);
      (this.timer as { unref?: () => void }).unref?.();
    });
  }
}
