import type { Channel, StrayHandler } from './channel.js';
import {
  isResponse,
  objectAt,
  parseMessage,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type RequestId,
} from './jsonRpc.js';

interface Pending {
  request: JsonRpcRequest;
  onRelated: (message: JsonRpcMessage) => void;
  resolve: (response: JsonRpcResponse) => void;
  reject: (failure: Error) => void;
}

const SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';

/**
 * MCP over one WebSocket (subprotocol `mcp`, one JSON-RPC message per text frame). A socket carries
 * every request's messages interleaved, so related notifications are matched back to their request:
 * progress by its token, subscription notifications by the listen request's id.
 */
export class WebSocketChannel implements Channel {
  readonly kind = 'ws';
  private readonly pending = new Map<RequestId, Pending>();

  private constructor(
    private readonly socket: WebSocket,
    private readonly onStray: StrayHandler,
  ) {
    socket.addEventListener('message', (event: MessageEvent<unknown>) => {
      if (typeof event.data === 'string') this.receive(event.data);
    });
    socket.addEventListener('close', () => {
      for (const pending of this.pending.values()) pending.reject(new Error('WebSocket closed'));
      this.pending.clear();
    });
  }

  /** Opens the socket; rejects when the server refuses the upgrade or the subprotocol. */
  static open(url: string, onStray: StrayHandler): Promise<WebSocketChannel> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, 'mcp');
      socket.addEventListener('open', () => resolve(new WebSocketChannel(socket, onStray)), {
        once: true,
      });
      socket.addEventListener('error', () => reject(new Error(`cannot open ${url}`)), {
        once: true,
      });
    });
  }

  request(
    message: JsonRpcRequest,
    onRelated: (m: JsonRpcMessage) => void,
    signal?: AbortSignal,
  ): Promise<JsonRpcResponse> {
    return new Promise((resolve, reject) => {
      this.pending.set(message.id, { request: message, onRelated, resolve, reject });
      signal?.addEventListener('abort', () => {
        if (!this.pending.delete(message.id)) return;
        void this.notify({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: message.id },
        });
        reject(new Error('cancelled'));
      });
      this.socket.send(JSON.stringify(message));
    });
  }

  async notify(message: JsonRpcNotification): Promise<void> {
    this.socket.send(JSON.stringify(message));
  }

  close(): void {
    this.socket.close(1000);
  }

  private receive(text: string): void {
    const message = parseMessage(text);
    if (!message) return;
    if (isResponse(message)) {
      const pending = message.id === null ? undefined : this.pending.get(message.id);
      if (!pending) return this.onStray(message);
      this.pending.delete(message.id as RequestId);
      pending.resolve(message);
      return;
    }
    const owner = this.ownerOf(message);
    if (owner) owner.onRelated(message);
    else this.onStray(message);
  }

  private ownerOf(message: JsonRpcMessage): Pending | undefined {
    const params = 'params' in message ? message.params : undefined;
    const subscription = objectAt(params, '_meta')?.[SUBSCRIPTION_ID];
    if (typeof subscription === 'string' || typeof subscription === 'number')
      return this.pending.get(subscription);
    const token = params?.progressToken;
    if (token === undefined) return undefined;
    for (const pending of this.pending.values()) {
      if (objectAt(pending.request.params, '_meta')?.progressToken === token) return pending;
    }
    return undefined;
  }
}
