import {
  ErrorCode,
  errorResponse,
  isRequest,
  type JsonRpcErrorResponse,
  type JsonRpcMessage,
} from '@rondo/protocol';

/** The answer to a message whose handling threw: -32603 for a request, nothing for anything else. */
export function internalErrorFor(message: JsonRpcMessage): JsonRpcErrorResponse | undefined {
  return isRequest(message)
    ? errorResponse(message.id, ErrorCode.InternalError, 'Internal error')
    : undefined;
}
