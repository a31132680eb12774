import type { HttpResponse } from './edge.js';

/**
 * The SSE responses one handler has open, against `maxOpenStreams` (0: no cap). A response counts
 * from the moment it is tracked until it closes, whoever ends it.
 */
export class StreamBudget {
  private count = 0;

  constructor(private readonly max: number) {}

  /** True when another SSE response would pass the cap. */
  get full(): boolean {
    return this.max > 0 && this.count >= this.max;
  }

  /** How many SSE responses are open. */
  get open(): number {
    return this.count;
  }

  /** Counts `res` as an open SSE response until it closes. */
  track(res: HttpResponse): void {
    this.count += 1;
    res.once('close', () => (this.count -= 1));
  }
}
