/** JSON-RPC and MCP error codes, named. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Legacy era: the requested resource does not exist. */
  ResourceNotFound: -32002,
  /** Legacy era (2025-11-25): an elicitation in URL mode is required. */
  UrlElicitationRequired: -32042,
  /** Modern era: an HTTP header disagrees with (or is missing for) the message body. */
  HeaderMismatch: -32020,
  /** Modern era: the request needs a client capability the client did not declare. */
  MissingClientCapability: -32021,
  /** Modern era: the requested protocol version is not supported. */
  UnsupportedProtocolVersion: -32022,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The `error` member of a JSON-RPC error response. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/**
 * The base of Rondo's local error classes, every one but the wire's {@link McpError}: `code` is a
 * stable dotted name of the failure (`core.configuration`, `client.request-timeout`,
 * `bridge.busy`) that stays the same across releases whatever the message says, for code and logs
 * that branch on the kind of failure; `name` is the class's name. Which wire error a local failure
 * becomes is decided in one place (`toWireError` of `@rondo/core`).
 */
export abstract class RondoError extends Error {
  /** The stable name of this kind of failure: `<package>.<kind>`. */
  abstract readonly code: string;
}

/** An error that crosses the wire: its code and message reach the peer unchanged. */
export class McpError extends Error {
  override readonly name = 'McpError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  /** The JSON-RPC error object for this error. */
  toJson(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/** True when `value` is an {@link McpError} (also across package copies). */
export function isMcpError(value: unknown): value is McpError {
  return (
    value instanceof McpError ||
    (value instanceof Error &&
      value.name === 'McpError' &&
      typeof (value as McpError).code === 'number')
  );
}
