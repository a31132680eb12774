import type { StreamPosition } from './body.js';

/** How the standalone stream opens and reads a GET. */
export interface StandaloneStreamOptions {
  open(lastEventId: string | undefined, signal: AbortSignal): Promise<Response>;
  read(response: Response, position: StreamPosition): Promise<unknown>;
  readonly maxReconnects: number;
  readonly reconnectDelayMs: number;
}

/**
 * The standalone GET stream of a legacy HTTP session: the channel for the server's own messages.
 * It reconnects with `Last-Event-ID` after the delay the server asked for (SSE polling), and stops
 * when the server has none (405) or after `maxReconnects` failures in a row.
 */
export class StandaloneStream {
  private readonly controller = new AbortController();

  constructor(private readonly options: StandaloneStreamOptions) {}

  /** Runs until stopped; never rejects. */
  run(): void {
    void this.loop().catch(() => undefined);
  }

  /** Ends the stream. */
  stop(): void {
    this.controller.abort();
  }

  private async loop(): Promise<void> {
    const position: StreamPosition = { lastEventId: undefined, retryMs: undefined };
    let failures = 0;
    while (!this.controller.signal.aborted && failures < this.options.maxReconnects) {
      let response: Response;
      try {
        response = await this.options.open(position.lastEventId, this.controller.signal);
      } catch {
        failures += 1;
        await this.pause(position);
        continue;
      }
      if (response.status === 405 || response.status === 404) {
        await response.body?.cancel();
        return;
      }
      if (!response.ok) {
        await response.body?.cancel();
        failures += 1;
      } else {
        failures = 0;
        await this.options.read(response, position);
      }
      await this.pause(position);
    }
  }

  private pause(position: StreamPosition): Promise<void> {
    const ms = position.retryMs ?? this.options.reconnectDelayMs;
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.controller.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
  }
}
