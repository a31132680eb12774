import { TokenRejectedError } from '@rondo/core';

/**
 * Paces the introspections of tokens this resource has not seen accepted before, so that made-up
 * tokens cannot turn into as many requests to the authorization server: at most `maxConcurrent`
 * at once, and at most `perSecond` a second after a burst of as many (a token bucket). A token
 * past either bound is not introspected: the request gets 503 with the `Retry-After` of the next
 * free turn. Tokens seen accepted before skip the pacer (their count is bounded by the verdict
 * cache, and each is checked again at most once per cache lifetime).
 */
export class IntrospectionPacer {
  #inFlight = 0;
  #credits: number;
  #refilledAt: number;

  constructor(
    private readonly maxConcurrent: number,
    private readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {
    this.#credits = perSecond;
    this.#refilledAt = now();
  }

  /** Runs `introspect` for a token not seen before, or throws the 503's rejection. */
  async run<T>(introspect: () => Promise<T>): Promise<T> {
    this.#refill();
    if (this.#inFlight >= this.maxConcurrent) {
      throw busy(`at most ${this.maxConcurrent} new tokens are checked at once`, 1);
    }
    if (this.#credits < 1) {
      const wait = Math.ceil((1 - this.#credits) / this.perSecond);
      throw busy(`at most ${this.perSecond} new tokens are checked per second`, Math.max(1, wait));
    }
    this.#credits -= 1;
    this.#inFlight += 1;
    try {
      return await introspect();
    } finally {
      this.#inFlight -= 1;
    }
  }

  #refill(): void {
    const now = this.now();
    const earned = ((now - this.#refilledAt) / 1000) * this.perSecond;
    this.#credits = Math.min(this.perSecond, this.#credits + earned);
    this.#refilledAt = now;
  }
}

function busy(why: string, retryAfterSeconds: number): TokenRejectedError {
  return new TokenRejectedError('verifier_unavailable', `${why}; try again shortly`, {
    retryAfterSeconds,
  });
}
