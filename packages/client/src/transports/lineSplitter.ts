import { ProtocolViolationError } from '../errors.js';

/**
 * Splits a byte stream into newline-terminated lines with a size cap. A line past the cap is
 * reported once and its bytes are dropped up to the next newline, so a server that never ends a
 * line costs at most the cap in memory.
 */
export class LineSplitter {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private skipping = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onRefused: (error: ProtocolViolationError) => void,
  ) {}

  /** Feeds one chunk of the stream. */
  push(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      if (this.buffered === 0 && !this.skipping && newline - start <= this.maxLineBytes) {
        // The whole line lies in this chunk: decoded where it is, with no view and no copy.
        this.emit(chunk.toString('utf8', start, newline));
      } else {
        this.append(chunk.subarray(start, newline));
        this.finishLine();
      }
      start = newline + 1;
    }
    if (start < chunk.length) this.append(chunk.subarray(start));
  }

  private append(part: Buffer): void {
    if (this.skipping || part.length === 0) return;
    if (this.buffered + part.length > this.maxLineBytes) {
      this.chunks = [];
      this.buffered = 0;
      this.skipping = true;
      this.onRefused(
        new ProtocolViolationError(
          `the server sent a line of more than ${this.maxLineBytes} bytes (limit maxFrameBytes); it was dropped`,
        ),
      );
      return;
    }
    this.chunks.push(part);
    this.buffered += part.length;
  }

  private finishLine(): void {
    if (this.skipping) {
      this.skipping = false;
      return;
    }
    const text = Buffer.concat(this.chunks, this.buffered).toString('utf8');
    this.chunks = [];
    this.buffered = 0;
    this.emit(text);
  }

  private emit(text: string): void {
    const line = text.trim();
    if (line.length > 0) this.onLine(line);
  }
}
