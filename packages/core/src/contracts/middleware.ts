import type {
  Era,
  PromptResult,
  RequestId,
  ResourceResult,
  RoundResult,
  ToolResult,
} from '@rondo/protocol';
import type { Cancellation } from './cancellation.js';
import type { CompletionResult, Principal } from './definitions.js';

/**
 * MCP middleware: functions that run around every request a server handles, in both eras and for
 * every provider, registered with `server.use(...)`. The first registered is the outermost.
 */

/** What middleware knows about one call: a request, or one round of a multi-round request. */
export interface McpCall {
  /** The JSON-RPC method (`tools/call`, `tools/list`, ...). */
  readonly method: string;
  /** The request's params, already validated against the method's schema. */
  readonly params: Readonly<Record<string, unknown>>;
  /** The era of the client's wire. */
  readonly era: Era;
  /** The negotiated (legacy) or requested (modern) protocol revision. */
  readonly revision: string;
  /** Who the transport authenticated, if anyone. */
  readonly principal: Principal | undefined;
  /** The JSON-RPC id of the request. */
  readonly id: RequestId;
  /** Aborted when the client cancels or goes away (see `HandlerContext.cancellation`). */
  readonly cancellation: Cancellation;
  /** `cancellation.signal`, for APIs that take an `AbortSignal`. */
  readonly signal: AbortSignal;
  /** 1 for the first call of a request; a round-hook retry (MRTR or the legacy shim) counts on. */
  readonly round: number;
  /** Transport facts about the request, such as HTTP headers (lower-case names). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>> | undefined;
  /** The id the transport keeps the connection's session under (a legacy HTTP session), if any. */
  readonly sessionId: string | undefined;
  /**
   * Who the client is as the transport tells clients apart (its principal, or without one its
   * address): an opaque key, if the transport has one.
   */
  readonly client: string | undefined;
  /** The peer's network address as the transport's socket saw it, if the transport has one. */
  readonly address: string | undefined;
  /**
   * Aborts the handler's `signal` (a Prolog goal is interrupted) while the request is still
   * answered: for middleware that gives up on the handler, a timeout say, and throws its own error.
   */
  stop(reason: Error): void;
}

/** A page of a list as the caller will see it: `tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`. */
export interface ListResult {
  /** The descriptors of the page (tool, prompt, resource or template definitions). */
  readonly items: readonly object[];
  readonly nextCursor?: string;
}

/**
 * What `next()` resolves to, by method: a {@link ListResult} for the four lists, a round result for
 * `tools/call`, `prompts/get` and `resources/read` (`undefined` for a resource nobody has), a
 * `CompletionResult` for `completion/complete`, and the era's result object for everything else
 * (`initialize`, `server/discover`, `ping`, ...). Middleware may return a value of the same kind
 * instead (a plain tool result counts as complete).
 */
export type McpResult =
  | ListResult
  | RoundResult<ToolResult>
  | RoundResult<PromptResult>
  | RoundResult<ResourceResult>
  | ToolResult
  | CompletionResult
  | Readonly<Record<string, unknown>>
  | undefined;

/** Runs the rest of the chain and the handler. */
export type McpNext = () => Promise<McpResult>;

/** A middleware: wraps a call, returning `next()`'s result, its own, or throwing an `McpError`. */
export type Middleware = (call: McpCall, next: McpNext) => Promise<McpResult>;

/** True when a middleware result is a list page. */
export function isListResult(result: McpResult): result is ListResult {
  return (
    typeof result === 'object' && result !== null && Array.isArray((result as ListResult).items)
  );
}
