import type { Readable } from 'node:stream';

/** What {@link readLines} reports. */
export interface LineHandlers {
  line(text: string): void;
  /** A line grew past the cap; no more lines are reported from this stream. */
  overflow(size: number): void;
  /** The stream closed: every line it carried was reported. */
  end?(): void;
}

/**
 * Splits a byte stream into newline-terminated UTF-8 lines, refusing any line longer than
 * `maxBytes` (a subprocess is a hostile stream: it must not make us buffer without end).
 */
export function readLines(stream: Readable, maxBytes: number, handlers: LineHandlers): void {
  let pending: Buffer[] = [];
  let pendingSize = 0;
  let stopped = false;
  stream.on('data', (chunk: Buffer) => {
    if (stopped) return;
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      const size = pendingSize + piece.length;
      if (size > maxBytes) return stop(size);
      const line = pendingSize === 0 ? piece : Buffer.concat([...pending, piece], size);
      pending = [];
      pendingSize = 0;
      // A carriage return before the newline is not part of the line.
      const end = line.length > 0 && line[line.length - 1] === 13 ? line.length - 1 : line.length;
      handlers.line(line.toString('utf8', 0, end));
      if (stopped) return;
      start = nl + 1;
    }
    const rest = chunk.subarray(start);
    if (rest.length === 0) return;
    if (pendingSize + rest.length > maxBytes) return stop(pendingSize + rest.length);
    pending.push(rest);
    pendingSize += rest.length;
  });

  stream.once('close', () => handlers.end?.());

  function stop(size: number): void {
    stopped = true;
    pending = [];
    handlers.overflow(size);
  }
}
