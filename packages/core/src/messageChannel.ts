import { isRequest, parseMessage, type JsonRpcMessage } from '@rondo/protocol';
import type { Principal } from './contracts/definitions.js';
import { InFlightExchanges } from './inFlightExchanges.js';
import type { Connection, Endpoint } from './contracts/transport.js';
import { toWireError } from './wireError.js';

/** How a {@link MessageChannel} writes and reports. */
export interface MessageChannelOptions {
  /** Sends one message on the channel (the transport serialises and frames it). */
  write(message: JsonRpcMessage): void;
  /** Told when the connection throws while receiving a message; the message is answered anyway. */
  onReceiveFailure?(failure: Error): void;
  /** Who the transport authenticated the channel as (a WebSocket upgrade's bearer token), if anyone. */
  principal?: Principal;
  /**
   * Who the channel's peer is without a principal (a WebSocket's remote address): the key of the
   * fair shares it draws on, as `Exchange.client`. Left out where there is one client by nature
   * (stdio).
   */
  client?: string;
}

/**
 * The receive side of a transport whose every message travels on one channel (a stdio stream, a
 * WebSocket): one endpoint connection, each inbound frame parsed into a JSON-RPC message and handed
 * to the connection with an exchange that writes back on the same channel. A frame that is not a
 * message is answered with its parse or validation error; a connection that throws is answered
 * with the wire form of the failure. The transport keeps only framing and connection life.
 */
export class MessageChannel {
  /** The exchanges that have not ended, to wait for (`size`, `onIdle`) before closing. */
  readonly exchanges: InFlightExchanges;
  /** The endpoint connection this channel feeds. */
  readonly connection: Connection;
  private readonly write: (message: JsonRpcMessage) => void;
  private readonly onReceiveFailure: ((failure: Error) => void) | undefined;
  private closed = false;

  /** Connects to `endpoint`; the connection's own messages are written on the channel too. */
  constructor(endpoint: Endpoint, options: MessageChannelOptions) {
    this.write = (message) => options.write(message);
    this.onReceiveFailure = options.onReceiveFailure?.bind(options);
    this.exchanges = new InFlightExchanges(this.write, options.principal, options.client);
    this.connection = endpoint.connect({ send: this.write });
  }

  /** Parses one frame's text and receives it; a frame that is not a message is answered with its error. */
  receiveText(text: string): void {
    const parsed = parseMessage(text);
    if (parsed.ok) this.receive(parsed.message);
    else this.write(parsed.error);
  }

  /** Hands one message to the connection with a fresh exchange. */
  receive(message: JsonRpcMessage): void {
    const exchange = this.exchanges.create();
    try {
      this.connection.receive(message, exchange);
    } catch (failure) {
      this.onReceiveFailure?.(failure instanceof Error ? failure : new Error(String(failure)));
      exchange.end(
        isRequest(message)
          ? { jsonrpc: '2.0', id: message.id, error: toWireError(failure) }
          : undefined,
      );
    }
  }

  /**
   * Aborts every open exchange (with `reason`, or the default `AbortError`) and closes the
   * connection. Calling it again does nothing.
   */
  close(reason?: unknown): void {
    if (this.closed) return;
    this.closed = true;
    this.exchanges.abortAll(reason);
    this.connection.close();
  }
}
