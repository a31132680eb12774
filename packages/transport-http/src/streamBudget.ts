import type { HttpResponse } from './edge.js';

/**
 * The SSE responses one handler has open, against `maxOpenStreams` in total and
 * `maxStreamsPerClient` for each client (0: no cap). A response counts from the moment it is
 * tracked until it closes, whoever ends it.
 */
export class StreamBudget {
  private count = 0;
  /** Open responses per client; a client with none has no entry. */
  private readonly perClient = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly maxPerClient: number = 0,
  ) {}

  /** Why another SSE response of `client` would pass a cap, or undefined when it fits. */
  refusal(client: string): string | undefined {
    if (this.max > 0 && this.count >= this.max) return 'too many open streams';
    if (this.maxPerClient > 0 && (this.perClient.get(client) ?? 0) >= this.maxPerClient)
      return 'too many open streams from this client';
    return undefined;
  }

  /** How many SSE responses are open. */
  get open(): number {
    return this.count;
  }

  /** Counts `res` as an open SSE response of `client` until it closes. */
  track(res: HttpResponse, client: string): void {
    this.count += 1;
    this.perClient.set(client, (this.perClient.get(client) ?? 0) + 1);
    res.once('close', () => {
      this.count -= 1;
      const left = (this.perClient.get(client) ?? 1) - 1;
      if (left > 0) this.perClient.set(client, left);
      else this.perClient.delete(client);
    });
  }
}
