import { isPlainObject, type JsonRpcMessage } from './jsonrpc.js';
import { MetaKey } from './revisions.js';

/**
 * Which era an inbound message belongs to: `modern` when its `params._meta` names a protocol
 * version (it is then validated strictly, never served as legacy), `initialize` when it opens a
 * legacy session, and `session` for everything else, which belongs to the connection's legacy
 * session if it has one.
 */
export type MessageClass = 'modern' | 'initialize' | 'session';

/** Classifies one inbound message; see {@link MessageClass}. */
export function classifyMessage(message: JsonRpcMessage): MessageClass {
  if (!('method' in message)) return 'session';
  const meta = message.params?._meta;
  if (isPlainObject(meta) && MetaKey.protocolVersion in meta) return 'modern';
  return message.method === 'initialize' ? 'initialize' : 'session';
}
