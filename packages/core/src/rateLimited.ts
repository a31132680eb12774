import { RondoError } from '@rondo/protocol';
/**
 * The refusal of a call over a rate limit. It becomes the JSON-RPC error {@link RATE_LIMITED}
 * (-32000) with `data.retryAfterMs`, and on HTTP a 429 with `Retry-After`.
 */

/** The JSON-RPC code of a rate-limit refusal (the server range of JSON-RPC: "slow down"). */
export const RATE_LIMITED = -32000;

/** A call refused by a rate limit, with how long to wait before the next one may pass. */
export class RateLimitedError extends RondoError {
  override readonly code: string = 'core.rate-limited';
  override readonly name = 'RateLimitedError';
  constructor(
    /** Milliseconds until a call would be admitted (at least 1). */
    readonly retryAfterMs: number,
    message: string,
  ) {
    super(message);
  }
}
