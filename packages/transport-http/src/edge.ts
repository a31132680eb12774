import type { ParseOutcome } from '@rondo/protocol';

/**
 * The request as the shared Streamable HTTP code reads it. Node's `IncomingMessage` has this
 * shape as it is; the fetch handler builds one from a web `Request`.
 */
export interface HttpRequest {
  readonly method?: string | undefined;
  /** Lower-case header names, as node gives them. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The header lines as sent, names and values alternating (node's), where the runtime keeps them. */
  readonly rawHeaders?: readonly string[] | undefined;
  /**
   * The connection, where the runtime tells its local address (the Host guard's default) and its
   * peer's address (who the client is, for the per-client caps, when no principal says so).
   */
  readonly socket?:
    | { readonly localAddress?: string | undefined; readonly remoteAddress?: string | undefined }
    | undefined;
  /** Keeps the runtime alive for work that outlives the response (see `Exchange.waitUntil`). */
  readonly waitUntil?: ((work: Promise<unknown>) => void) | undefined;
}

/**
 * The response as the shared code writes it: the part of node's `ServerResponse` it uses, so the
 * node handler passes its response as it is and the fetch handler implements the same few members
 * over a web `Response` (see `FetchResponder`).
 */
export interface HttpResponse {
  statusCode: number;
  /** True once the status line and headers are fixed. */
  readonly headersSent: boolean;
  /** True once the client went away. */
  readonly destroyed: boolean;
  /** True once `end` was called. */
  readonly writableEnded: boolean;
  setHeader(name: string, value: string): unknown;
  writeHead(status: number, headers?: Record<string, string>): unknown;
  /** Sends the head now (an SSE stream starts before its first event). */
  flushHeaders(): void;
  /**
   * Writes a chunk. `false` says the connection's buffer is full: the SSE writer then waits for
   * `drain` before writing more; any other answer means the chunk was taken.
   */
  write(chunk: string): unknown;
  end(chunk?: string | Uint8Array): unknown;
  /** Bytes written but not yet taken by the client (for cutting off slow readers), if known. */
  readonly writableLength?: number;
  /** Drops the connection at once, whatever is still queued. */
  destroy?(): unknown;
  /** `close`: the response ended or the client went away, whichever came first. */
  once(event: 'close', listener: () => void): unknown;
  /** `drain`: a full connection (a write answered `false`) can take more. */
  on?(event: 'drain', listener: () => void): unknown;
}

/** A POST body as a message, or why there is none. */
export type BodyMessage = ParseOutcome | 'too-large' | 'aborted';

/** Reads the body of the request being served under a byte limit (each edge reads its own). */
export type BodySource = (limit: number) => Promise<BodyMessage> | BodyMessage;
