import {
  LOGGING_LEVELS,
  type Era,
  type InputResponseValue,
  type Json,
  type JsonObject,
  type LoggingLevel,
  type Revision,
  type SamplingRequest,
  type SamplingResponse,
} from '@rondo/protocol';
import type { Cancellation } from './cancellation.js';
import type { Principal } from './definitions.js';

/** A log level of MCP (the wire's vocabulary, RFC 5424 names). */
export type LogLevel = LoggingLevel;

/** The levels in increasing severity, for filtering. */
export const LOG_LEVELS: readonly LogLevel[] = LOGGING_LEVELS;

/** What a handler knows about its request, and what it can do besides returning a result. */
export interface HandlerContext {
  /** The era of the client's wire. Providers rarely need it: round hooks work in both. */
  readonly era: Era;
  readonly revision: Revision;
  /** The capabilities the client declared (per request in the modern era, at initialize in the legacy). */
  readonly clientCapabilities: JsonObject;
  /** The client's name and version, when it gave them (`undefined` otherwise). */
  readonly clientInfo?: { name: string; version: string } | undefined;
  /** Answers to the input requests of the previous round, by key. */
  readonly inputResponses: Readonly<Record<string, InputResponseValue>>;
  /** The state the previous round returned, already verified and opened. */
  readonly requestState: Json | undefined;
  /** 1 for the first call of a request, then one more for each round. */
  readonly round: number;
  /**
   * Aborted when the client cancels the request or goes away, or middleware stops the handler:
   * check `cancellation.aborted`, listen with `cancellation.onAbort`, neither of which makes an
   * `AbortSignal`.
   */
  readonly cancellation: Cancellation;
  /** `cancellation.signal`, for APIs that take an `AbortSignal` (`fetch`, timers). */
  readonly signal: AbortSignal;
  readonly principal: Principal | undefined;
  /** Reports progress; delivered only when the client asked for it (a progress token). */
  progress(value: number, total?: number, message?: string): void;
  /** Sends a log message; delivered only at or above the level the client chose. */
  log(level: LogLevel, data: Json, logger?: string): void;
  /** Legacy wire only: asks the client to fill a form now. Use `inputRequired` to work in both eras. */
  elicit(message: string, schema: JsonObject): Promise<InputResponseValue>;
  /** Legacy wire only: asks the client's model for a message. */
  sample(request: Omit<SamplingRequest, 'kind'>): Promise<SamplingResponse>;
  /** Legacy wire only: asks the client for its roots. */
  listRoots(): Promise<{ uri: string; name?: string }[]>;
  /**
   * Ends the response stream carrying this request's messages while the handler keeps running
   * (SSE polling): the client resumes the stream and receives what follows, the result included.
   * Only a transport that can resume streams does it (a Streamable HTTP session of a revision
   * that resumes streams); elsewhere it does nothing.
   */
  closeStream(): void;
  /** The same for the session's standalone stream (an HTTP GET stream); elsewhere nothing. */
  closeSessionStream(): void;
}
