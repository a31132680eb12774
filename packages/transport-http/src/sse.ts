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
 * The most UTF-16 units of one event handed to the connection at once. A connection counts a write
 * as unread until all of it is taken, so a large event goes in pieces: what the client reads then
 * shows piece by piece, and a slow reader of one large event is told from one that reads nothing.
 */
const PIECE_UNITS = 16 * 1024;

/**
 * An open `text/event-stream` response. Keep-alive comments go out while it is idle so proxies
 * and clients do not time the stream out; they are comments, so no client treats them as events.
 *
 * Events go to the connection only as fast as it takes them: once a write is refused (the
 * connection's buffer is full) the next events wait here, as the events they are, until it drains.
 * A replay of stored events therefore holds no copy of them while its client does not read, and
 * an ended response stays open until its last waiting event is taken. A client that stops reading
 * is cut off, before or after the end: see {@link SseResponse.checkBacklog}.
 */
export class SseResponse {
  private keepAlive: TimerHandle | undefined;
  private backlogCheck: TimerHandle | undefined;
  /** Events the connection had no room for yet, oldest first from `head`; formatted when sent. */
  private waiting: SseEvent[] = [];
  private head = 0;
  /** What is left of the event being handed over in pieces. */
  private rest = '';
  /** The connection refused a write: nothing more goes out until it drains. */
  private full = false;
  /** Bytes accepted by `write`, and bytes the connection took (sent on), since the start. */
  private accepted = 0;
  private taken = 0;
  /** Bytes handed to the connection (part of `accepted`). */
  private handed = 0;
  /** Unread and taken bytes at the last backlog check. */
  private unreadAtCheck = 0;
  private takenAtCheck = 0;
  /** No more events: the response ends once the waiting ones are taken. */
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
          if (this.open && this.idle) this.writeText(': keep-alive\n\n');
        }, keepAliveMs),
      );
    }
    if (limits.maxStreamBacklogBytes > 0 && res.writableLength !== undefined) {
      this.backlogCheck = unrefTimer(
        setInterval(() => this.checkBacklog(), limits.streamBacklogWindowMs),
      );
    }
    res.on?.('drain', () => this.flush());
    res.once('close', () => this.release());
  }

  /** False once the response ended or the client went away. */
  get open(): boolean {
    return !this.closed && !this.res.writableEnded && !this.res.destroyed;
  }

  /** Writes one event; a no-op once the stream is closed. */
  write(event: SseEvent): void {
    if (!this.open) return;
    if (!this.idle) {
      // Counted now, formatted when sent: the waiting event holds no text of its own.
      this.accepted += eventBytes(event);
      this.waiting.push(event);
      return;
    }
    this.writeText(formatEvent(event));
  }

  /** Calls `listener` once the response is gone (ended, or the client went away). */
  onClose(listener: () => void): void {
    this.res.once('close', listener);
  }

  /** Ends the response once the events waiting for the connection are taken. */
  end(): void {
    this.closed = true;
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.keepAlive = undefined;
    this.finishIfDone();
  }

  /** True when the connection has room and nothing waits for it. */
  private get idle(): boolean {
    return !this.full && this.rest === '' && this.head === this.waiting.length;
  }

  private writeText(text: string): void {
    this.accepted += utf8Length(text);
    this.handOver(text);
  }

  /** Bytes written to this response that its client has not read (as far as the server knows). */
  private get unread(): number {
    return this.accepted - this.taken;
  }

  /** Sends the next pieces and waiting events while the connection takes them. */
  private flush(): void {
    this.full = false;
    this.updateTaken();
    while (!this.full && !this.gone) {
      if (this.rest !== '') this.handOver(this.rest);
      else if (this.head < this.waiting.length) this.handOver(formatEvent(this.next()));
      else break;
    }
    this.finishIfDone();
  }

  /** Writes `text` piece by piece while the connection takes them; what is left waits in `rest`. */
  private handOver(text: string): void {
    let left = text;
    while (left !== '' && !this.full && !this.gone) {
      let cut = Math.min(left.length, PIECE_UNITS);
      // A surrogate pair stays whole: each piece is encoded on its own.
      if (cut < left.length && isHighSurrogate(left.charCodeAt(cut - 1))) cut -= 1;
      this.send(cut === left.length ? left : left.slice(0, cut));
      left = cut === left.length ? '' : left.slice(cut);
    }
    this.rest = this.gone ? '' : left;
  }

  private send(text: string): void {
    this.handed += utf8Length(text);
    // Only `false` says full: an edge whose write answers otherwise takes everything at once.
    if (this.res.write(text) === false) this.full = true;
    this.updateTaken();
  }

  /** The connection took what it no longer holds of what was handed to it. */
  private updateTaken(): void {
    const held = this.res.writableLength ?? 0;
    this.taken = Math.max(this.taken, this.handed - held);
  }

  private next(): SseEvent {
    const event = this.waiting[this.head] as SseEvent;
    this.head += 1;
    if (this.head === this.waiting.length) {
      this.waiting = [];
      this.head = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.waiting.length) {
      this.waiting = this.waiting.slice(this.head);
      this.head = 0;
    }
    return event;
  }

  private get gone(): boolean {
    return this.res.destroyed || this.res.writableEnded;
  }

  private finishIfDone(): void {
    if (!this.closed || this.rest !== '' || this.head < this.waiting.length) return;
    if (!this.res.writableEnded) this.res.end();
    this.stopTimers();
  }

  /**
   * Cuts the response when the client is not reading: more than `maxStreamBacklogBytes` were
   * unread at the previous check, and the connection has taken nothing since, a whole window. Only
   * bytes that stayed unread for the window count, and any progress keeps the response, so a
   * burst (a replay after `Last-Event-ID`, a large result) read at any steady pace is never cut
   * for its size. What the connection takes is what the kernel's socket buffer accepts: it frees
   * room in steps (up to megabytes on loopback), so a reader slower than one step per window reads
   * as stopped. An ended response whose events still wait for the connection is watched the same
   * way: a finished answer nobody reads is cut like a live one.
   */
  private checkBacklog(): void {
    this.updateTaken();
    const progressed = this.taken > this.takenAtCheck;
    const unreadBefore = this.unreadAtCheck;
    this.takenAtCheck = this.taken;
    this.unreadAtCheck = this.unread;
    if (progressed || unreadBefore <= this.limits.maxStreamBacklogBytes) return;
    if (this.res.destroyed) return;
    this.closed = true;
    this.release();
    // Nothing more can reach a client behind that backlog: the connection goes, not an end.
    this.res.destroy?.();
  }

  /** Stops the timers and lets go of the waiting events. */
  private release(): void {
    this.stopTimers();
    this.waiting = [];
    this.head = 0;
    this.rest = '';
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

/**
 * The UTF-8 length of each message's JSON, once per message: the replays of one stored stream to
 * many clients share its messages, so each is measured once, not once per replay.
 */
const messageBytes = new WeakMap<JsonRpcMessage, number>();

/** The bytes {@link formatEvent} makes of `event`, without keeping its text. */
function eventBytes(event: SseEvent): number {
  const { message } = event;
  if (message === undefined) return utf8Length(formatEvent(event));
  let bytes = messageBytes.get(message);
  if (bytes === undefined) {
    bytes = utf8Length(serializeMessage(message));
    messageBytes.set(message, bytes);
  }
  return utf8Length(formatEvent({ ...event, message: undefined })) + bytes;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
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
