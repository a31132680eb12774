import { ErrorCode, McpError, isPlainObject, type JsonRpcRequest } from '@rondo/protocol';
import type { PendingCall } from './pending.js';
import type { RpcSession } from './rpc.js';

/** Whose handlers answer a server request: one open call's, or the client's own. */
export type RequestOwner =
  { readonly kind: 'call'; readonly call: PendingCall } | { readonly kind: 'client' };

/**
 * The open call a legacy server request belongs to. A legacy request names no call, so the client
 * reads what does: the response stream it arrived on (`related`, an HTTP POST's SSE stream), then
 * a progress token the server copied from one of the client's requests, then, when exactly one
 * open call brought its own handlers, that call. With several candidates and nothing to tell them
 * apart the request is refused (an `McpError` the server gets): a gateway sending one caller's
 * question to another would leak it, and that caller's answer would finish the wrong call.
 */
export function ownerOf(
  request: JsonRpcRequest,
  related: PendingCall | undefined,
  rpc: RpcSession,
): RequestOwner {
  if (related) return related.handlers ? { kind: 'call', call: related } : { kind: 'client' };
  const token = progressTokenOf(request.params);
  const named = token === undefined ? undefined : rpc.callByProgressToken(token);
  if (named) return named.handlers ? { kind: 'call', call: named } : { kind: 'client' };
  const candidates = rpc.callsWithHandlers();
  if (candidates.length === 0) return { kind: 'client' };
  if (candidates.length === 1) return { kind: 'call', call: candidates[0]! };
  throw new McpError(
    ErrorCode.InternalError,
    `The client cannot tell which of its ${candidates.length} open calls this ${request.method} request is for`,
  );
}

function progressTokenOf(params: unknown): string | number | undefined {
  if (!isPlainObject(params) || !isPlainObject(params._meta)) return undefined;
  const token = params._meta.progressToken;
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}
