import type { HttpResponse } from './edge.js';
import { serializeMessage, type JsonRpcMessage } from '@rondo/protocol';
import { unrefTimer, type TimerHandle } from './timers.js';

/** One event on an SSE response. */
export interface SseEvent {
  id?: string;
  /** Reconnection delay advertised to the client (the `retry:` field). */
  retryMs?: number;
  /** The message carried; none for a priming event (an id with empty data). */
  message?: JsonRpcMessage;
}

/**
 * An open `text/event-stream` response. Keep-alive comments go out while it is idle so proxies
 * and clients do not time the stream out; they are comments, so no client treats them as events.
 */
export class SseResponse {
  private keepAlive: TimerHandle | undefined;
  private closed = false;

  constructor(
    readonly res: HttpResponse,
    headers: Record<string, string>,
    keepAliveMs: number,
  ) {
    res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
    });
    res.flushHeaders();
    if (keepAliveMs > 0) {
      this.keepAlive = unrefTimer(
        setInterval(() => {
          if (this.open) this.res.write(': keep-alive\n\n');
        }, keepAliveMs),
      );
    }
    res.once('close', () => this.stopKeepAlive());
  }

  /** False once the response ended or the client went away. */
  get open(): boolean {
    return !this.closed && !this.res.writableEnded && !this.res.destroyed;
  }

  /** Writes one event; a no-op once the stream is closed. */
  write(event: SseEvent): void {
    if (!this.open) return;
    this.res.write(formatEvent(event));
  }

  /** Ends the response. */
  end(): void {
    this.stopKeepAlive();
    this.closed = true;
    if (!this.res.writableEnded) this.res.end();
  }

  private stopKeepAlive(): void {
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.keepAlive = undefined;
  }
}

/** Frames one SSE event. Messages are single-line JSON, so one `data:` line always suffices. */
export function formatEvent(event: SseEvent): string {
  let text = '';
  if (event.id !== undefined) text += `id: ${event.id}\n`;
  if (event.retryMs !== undefined) text += `retry: ${event.retryMs}\n`;
  text += `data: ${event.message ? serializeMessage(event.message) : ''}\n\n`;
  return text;
}
