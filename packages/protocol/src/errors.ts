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

/**
 * The HTTP status a modern-era error is answered with on Streamable HTTP: 400 for header mismatch,
 * missing capability, unsupported version, invalid requests and an invalid `_meta` (an invalid-params
 * error whose `data.invalidMeta` names the key), 404 for an unknown method, 200 for everything else
 * (the error travels in the JSON-RPC body).
 */
export function httpStatusForError(error: number | JsonRpcErrorObject): number {
  const code = typeof error === 'number' ? error : error.code;
  switch (code) {
    case ErrorCode.HeaderMismatch:
    case ErrorCode.MissingClientCapability:
    case ErrorCode.UnsupportedProtocolVersion:
    case ErrorCode.InvalidRequest:
    case ErrorCode.ParseError:
      return 400;
    case ErrorCode.MethodNotFound:
      return 404;
    case ErrorCode.InvalidParams:
      return typeof error === 'object' && isInvalidMetaData(error.data) ? 400 : 200;
    default:
      return 200;
  }
}

function isInvalidMetaData(data: unknown): boolean {
  return typeof data === 'object' && data !== null && 'invalidMeta' in data;
}
