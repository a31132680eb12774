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

/** How an SSE response keeps alive and when it gives up on a client that does not read. */
export interface SseLimits {
  /** Interval of keep-alive comments; 0 for none. */
  keepAliveMs: number;
  /** Bytes a client may leave unread for a whole window; 0 for no limit. */
  maxStreamBacklogBytes: number;
  /** How often the backlog is checked, and so how long old bytes may stay unread. */
  streamBacklogWindowMs: number;
}

/**
 * An open `text/event-stream` response. Keep-alive comments go out while it is idle so proxies
 * and clients do not time the stream out; they are comments, so no client treats them as events.
 * A client that stops reading is cut off: see {@link SseResponse.checkBacklog}.
 */
export class SseResponse {
  private keepAlive: TimerHandle | undefined;
  private backlogCheck: TimerHandle | undefined;
  /** Bytes written since the last backlog check (counted only while checks run). */
  private writtenSinceCheck = 0;
  /** What was queued at the last backlog check. */
  private queuedAtCheck = 0;
  private closed = false;

  constructor(
    readonly res: HttpResponse,
    headers: Record<string, string>,
    private readonly limits: SseLimits,
  ) {
    const { keepAliveMs } = limits;
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
    if (limits.maxStreamBacklogBytes > 0 && res.writableLength !== undefined) {
      this.backlogCheck = unrefTimer(
        setInterval(() => this.checkBacklog(), limits.streamBacklogWindowMs),
      );
    }
    res.once('close', () => this.stopTimers());
  }

  /** False once the response ended or the client went away. */
  get open(): boolean {
    return !this.closed && !this.res.writableEnded && !this.res.destroyed;
  }

  /** Writes one event; a no-op once the stream is closed. */
  write(event: SseEvent): void {
    if (!this.open) return;
    const text = formatEvent(event);
    if (this.backlogCheck) this.writtenSinceCheck += utf8Length(text);
    this.res.write(text);
  }

  /** Calls `listener` once the response is gone (ended, or the client went away). */
  onClose(listener: () => void): void {
    this.res.once('close', listener);
  }

  /** Ends the response. */
  end(): void {
    this.stopTimers();
    this.closed = true;
    if (!this.res.writableEnded) this.res.end();
  }

  /**
   * Cuts the response when the client is not reading: more than `maxStreamBacklogBytes` that were
   * already queued at the previous check are still queued, and it took less than that in the whole
   * window. Bytes written since the last check are not counted as unread, and a client that keeps
   * reading at that pace is not cut, so a burst (a replay after `Last-Event-ID`, a large result)
   * is never cut for its size alone.
   */
  private checkBacklog(): void {
    const queued = this.res.writableLength ?? 0;
    const stale = queued - this.writtenSinceCheck;
    const drained = this.queuedAtCheck + this.writtenSinceCheck - queued;
    this.writtenSinceCheck = 0;
    this.queuedAtCheck = queued;
    const max = this.limits.maxStreamBacklogBytes;
    if (stale <= max || drained >= max || !this.open) return;
    this.stopTimers();
    this.closed = true;
    // Nothing more can reach a client behind that backlog: the connection goes, not an end.
    this.res.destroy?.();
  }

  private stopTimers(): void {
    if (this.keepAlive) clearInterval(this.keepAlive);
    if (this.backlogCheck) clearInterval(this.backlogCheck);
    this.keepAlive = undefined;
    this.backlogCheck = undefined;
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

/** The UTF-8 length of a string, without encoding it (a surrogate pair is 2 + 2 bytes). */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit >= 0x80) bytes += unit < 0x800 || (unit >= 0xd800 && unit <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}
