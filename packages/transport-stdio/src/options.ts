/** Options of `serveStdio`. */
export interface StdioOptions {
  /** Where requests come from (default `process.stdin`). */
  input?: NodeJS.ReadableStream;
  /** Where responses go (default `process.stdout`); nothing but JSON-RPC lines is ever written to it. */
  output?: NodeJS.WritableStream;
  /**
   * The longest line accepted, in bytes, without its newline (default 4 MiB). A longer line is never
   * buffered whole: it is skipped up to its newline and answered with -32600 and id null.
   */
  maxLineBytes?: number;
  /** After end of input, how long in-flight requests may still run before they are aborted (default 30 s). */
  drainTimeoutMs?: number;
  /** Diagnostics: framing noise, write failures, a stuck drain. Default: one line on stderr. */
  onError?: (error: Error) => void;
  /**
   * While serving on `process.stdout`, `console.log`, `console.info`, `console.debug` (every console
   * method) write to stderr, so a handler's debugging line cannot corrupt the protocol stream.
   * Default true when `output` is `process.stdout`; `false` leaves the console alone. Writing to
   * `process.stdout` directly is never redirected.
   */
  consoleToStderr?: boolean;
}

/** A running stdio server. */
export interface StdioServer {
  /** Resolves once input has ended and in-flight work has drained, or after {@link close}. */
  readonly closed: Promise<void>;
  /** Stops reading, aborts in-flight work and closes the connection; resolves like {@link closed}. */
  close(): Promise<void>;
}

/** The default line cap: 4 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

/** The default time in-flight work gets to finish after end of input. */
export const DEFAULT_DRAIN_TIMEOUT_MS = 30_000;

/** Writes one diagnostic line to stderr, the only place a stdio server may talk freely. */
export function logToStderr(error: Error): void {
  process.stderr.write(`[rondo stdio] ${error.message}\n`);
}
