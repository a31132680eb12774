import type { JsonRpcMessage, RequestId } from '@rondo/protocol';

/**
 * The contract between the client and a transport. A transport moves frames: it hands every frame
 * the server sends to {@link TransportSink.receive} as text (the client decodes and checks it) and
 * sends the client's messages. Nothing here is era-specific.
 */

/** Where a transport delivers what the server sends. */
export interface TransportSink {
  /**
   * One frame from the server: a stdio line, an HTTP JSON body, an SSE event, a WebSocket message.
   * Returns the id of the request the frame answered, if it was an answer, so a transport that
   * holds a response per request (HTTP) knows when that response has done its work.
   * `relatedTo` is the id of the client's request whose response carried the frame (an HTTP
   * POST's SSE stream, an in-memory exchange), when the transport can tell: a server request
   * arriving there belongs to that call.
   */
  receive(frame: string, relatedTo?: RequestId): RequestId | undefined;
  /** A frame the transport refused before decoding it (too large); the connection goes on. */
  refused(error: Error): void;
  /** The connection ended; `error` says why when it did not end by {@link ClientTransport.close}. */
  closed(error?: Error): void;
}

/** What the client says about one outbound message, beyond the message. */
export interface SendContext {
  /** Extra HTTP headers for this message (the 2026-07-28 standard and `Mcp-Param-*` headers). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Aborted when the caller gives up on the request (transports that hold a response per request end it). */
  readonly signal?: AbortSignal;
}

/** A way to reach one server: a child process, an HTTP endpoint, a socket, a server in memory. */
export interface ClientTransport {
  /** Opens the connection; frames go to `sink` from now on. */
  start(sink: TransportSink): Promise<void>;
  /**
   * Sends one message. Rejects with a typed error when it could not be delivered (a transport
   * failure, an HTTP status without a JSON-RPC answer); answers arrive through the sink.
   */
  send(message: JsonRpcMessage, context?: SendContext): Promise<void>;
  /** Tells the transport the revision in use, for transports that repeat it (the HTTP header). */
  setProtocolVersion?(version: string): void;
  /**
   * Opens the channel for messages not tied to a request, where the transport has a separate one
   * (HTTP's standalone GET stream). The client calls it once a legacy session exists.
   */
  listen?(): void;
  /** Closes the connection and frees what it holds (a child process, a session, a socket). */
  close(): Promise<void>;
  /** A name for the endpoint (a URL, a command line), under which the client caches what it learned. */
  readonly endpointKey: string;
}
