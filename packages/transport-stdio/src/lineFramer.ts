/**
 * Newline framing for a byte stream that may be hostile: lines are cut on the byte 0x0A (which never
 * occurs inside a multi-byte UTF-8 sequence, so a character split across chunks is reassembled before
 * it is decoded), a line longer than the cap is dropped while it streams past instead of being
 * buffered, and bytes that are not UTF-8 are reported rather than silently replaced.
 */

import { ErrorCode, errorResponse, type JsonRpcErrorResponse } from '@rondo/protocol';

/** What the framer found in the stream. */
export type FrameEvent =
  { kind: 'line'; text: string } | { kind: 'invalidUtf8' } | { kind: 'oversized'; limit: number };

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const REPLACEMENT_CHARACTER = '\uFFFD';
const BYTE_ORDER_MARK = 0xfeff;

/** Splits a byte stream into UTF-8 lines of at most `maxLineBytes` bytes (excluding the newline). */
export class LineFramer {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** True while the rest of an oversized line is being skipped. */
  private discarding = false;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });

  constructor(private readonly maxLineBytes: number) {}

  /** Feeds one chunk; returns the events of every line it completed. */
  push(chunk: Buffer): FrameEvent[] {
    const events: FrameEvent[] = [];
    let start = 0;
    for (
      let newline = chunk.indexOf(NEWLINE);
      newline !== -1;
      newline = chunk.indexOf(NEWLINE, start)
    ) {
      const piece = chunk.subarray(start, newline);
      start = newline + 1;
      if (this.discarding) {
        this.discarding = false;
        continue;
      }
      if (this.pendingBytes + piece.length > this.maxLineBytes) {
        this.reset();
        events.push({ kind: 'oversized', limit: this.maxLineBytes });
        continue;
      }
      const line = this.pendingBytes === 0 ? piece : Buffer.concat([...this.pending, piece]);
      this.reset();
      const event = this.decode(line);
      if (event) events.push(event);
    }
    this.keep(chunk.subarray(start), events);
    return events;
  }

  /** Ends the stream: an unterminated last line still counts as a line. */
  end(): FrameEvent[] {
    if (this.discarding || this.pendingBytes === 0) {
      this.reset();
      this.discarding = false;
      return [];
    }
    const event = this.decode(Buffer.concat(this.pending));
    this.reset();
    return event ? [event] : [];
  }

  private keep(rest: Buffer, events: FrameEvent[]): void {
    if (rest.length === 0 || this.discarding) return;
    if (this.pendingBytes + rest.length > this.maxLineBytes) {
      // Report now and skip the remainder until its newline, so memory stays bounded by the cap.
      this.reset();
      this.discarding = true;
      events.push({ kind: 'oversized', limit: this.maxLineBytes });
      return;
    }
    // Copy: the caller's chunk may be a view into a pooled buffer that gets reused.
    this.pending.push(Buffer.from(rest));
    this.pendingBytes += rest.length;
  }

  private decode(bytes: Buffer): FrameEvent | undefined {
    const end =
      bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN
        ? bytes.length - 1
        : bytes.length;
    // Decoded leniently first, which makes nothing but the string; only a line that then holds a
    // U+FFFD (a replaced byte, or one the peer sent) is decoded again strictly to tell which.
    let text = bytes.toString('utf8', 0, end);
    // A leading byte order mark is dropped, as the strict decoder drops it.
    if (text.charCodeAt(0) === BYTE_ORDER_MARK) text = text.slice(1);
    if (text.includes(REPLACEMENT_CHARACTER)) {
      try {
        text = this.decoder.decode(bytes.subarray(0, end));
      } catch {
        return { kind: 'invalidUtf8' };
      }
    }
    return text.trim().length === 0 ? undefined : { kind: 'line', text };
  }

  private reset(): void {
    this.pending = [];
    this.pendingBytes = 0;
  }
}

/**
 * The answer to a frame that is not a line: -32600 (id null) for an oversized line, whose size makes
 * it an invalid request whatever it holds, and -32700 (id null) for bytes that are not UTF-8.
 */
export function frameError(event: Exclude<FrameEvent, { kind: 'line' }>): JsonRpcErrorResponse {
  if (event.kind === 'invalidUtf8') {
    return errorResponse(null, ErrorCode.ParseError, 'Parse error: the line is not valid UTF-8');
  }
  return errorResponse(
    null,
    ErrorCode.InvalidRequest,
    `Invalid Request: line longer than ${event.limit} bytes`,
    {
      maxLineBytes: event.limit,
    },
  );
}
