import { ErrorCode, McpError, isMcpError, type JsonRpcErrorObject } from '@rondo/protocol';

/**
 * The one place where a failure becomes a wire error: an {@link McpError} keeps its code, anything
 * else is an internal error (-32603) whose message names the failure without a stack.
 */
export function toWireError(failure: unknown): JsonRpcErrorObject {
  if (isMcpError(failure)) return failure.toJson();
  const message = failure instanceof Error ? failure.message : String(failure);
  return new McpError(ErrorCode.InternalError, `Internal error: ${message}`).toJson();
}
