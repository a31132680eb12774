import type {
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
} from './jsonRpc.js';

/**
 * How the playground reaches the server. Both channels (WebSocket and HTTP) route the messages that
 * belong to a request (progress, subscription notifications) to that request's `onRelated`, so the
 * client above them does not care which wire it is on.
 */
export interface Channel {
  readonly kind: 'ws' | 'http';
  /**
   * Sends a request and resolves with its response. Aborting `signal` ends the request the way the
   * wire defines cancellation (closing the HTTP stream, `notifications/cancelled` on a socket).
   */
  request(
    message: JsonRpcRequest,
    onRelated: (message: JsonRpcMessage) => void,
    signal?: AbortSignal,
  ): Promise<JsonRpcResponse>;
  /** Sends a notification. */
  notify(message: JsonRpcNotification): Promise<void>;
  close(): void;
}

/** Where messages that belong to no request go (the traffic log). */
export type StrayHandler = (message: JsonRpcMessage) => void;
