import { serializeMessage, type JsonRpcMessage } from '@rondo/protocol';
// Types only: `ws` is an optional peer, loaded when a socket is opened (loadWebSocket), so
// `@rondo/client/node` imports without it for stdio and HTTP.
import type { RawData, WebSocket } from 'ws';
import { messageWithCauses } from '../causes.js';
import { ClientStateError, TransportError } from '../errors.js';
import { DEFAULT_MAX_FRAME_BYTES } from '../frames.js';
import type { ClientTransport, TransportSink } from '../transport.js';

/** How to reach a WebSocket endpoint. */
export interface WebSocketTransportOptions {
  /** The endpoint (`ws://host/ws`). */
  readonly url: string | URL;
  /** Headers of the opening handshake (an API key). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Largest message from the server (bytes); `ws` closes the socket on a larger one. Default 16 MiB. */
  readonly maxFrameBytes?: number;
  /** How long the opening handshake may take (ms). Default 10,000. */
  readonly handshakeTimeoutMs?: number;
}

/** Talks MCP over a WebSocket (subprotocol `mcp`), one JSON-RPC message per text frame. */
export function webSocketTransport(options: WebSocketTransportOptions): ClientTransport {
  return new WebSocketTransport(options);
}

class WebSocketTransport implements ClientTransport {
  readonly endpointKey: string;
  private socket: WebSocket | undefined;
  private closing = false;

  constructor(private readonly options: WebSocketTransportOptions) {
    this.endpointKey = `ws:${new URL(options.url).href}`;
  }

  async start(sink: TransportSink): Promise<void> {
    const WebSocketClient = await loadWebSocket();
    const socket = new WebSocketClient(this.options.url, 'mcp', {
      headers: { ...this.options.headers },
      maxPayload: this.options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES,
      handshakeTimeout: this.options.handshakeTimeoutMs ?? 10_000,
    });
    this.socket = socket;
    socket.on('message', (data, isBinary) => {
      if (isBinary) return sink.refused(new TransportError('the server sent a binary frame'));
      sink.receive(frameText(data));
    });
    return new Promise((resolve, reject) => {
      socket.once('open', () => {
        if (socket.protocol !== 'mcp') {
          socket.close();
          return reject(new TransportError('the server did not accept the subprotocol mcp'));
        }
        socket.on('close', (code, reason) => {
          if (this.closing) return sink.closed();
          sink.closed(new TransportError(`the socket closed (${code} ${reason.toString()})`));
        });
        resolve();
      });
      socket.on('error', (error) => {
        if (socket.readyState === socket.CONNECTING) {
          reject(
            new TransportError(`cannot connect: ${messageWithCauses(error)}`, undefined, {
              cause: error,
            }),
          );
        }
      });
    });
  }

  send(message: JsonRpcMessage): Promise<void> {
    const socket = this.socket;
    if (!socket || socket.readyState !== socket.OPEN) {
      return Promise.reject(new ClientStateError('the socket is not open'));
    }
    return new Promise((resolve, reject) => {
      socket.send(serializeMessage(message), (error) =>
        error ? reject(new TransportError(`cannot send: ${error.message}`)) : resolve(),
      );
    });
  }

  close(): Promise<void> {
    const socket = this.socket;
    this.closing = true;
    if (!socket || socket.readyState === socket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      socket.once('close', () => resolve());
      socket.close(1000);
      setTimeout(() => socket.terminate(), 2000).unref();
    });
  }
}

/** The `ws` client class, imported on first use; a precise error when the peer is not installed. */
async function loadWebSocket(): Promise<typeof WebSocket> {
  try {
    return (await import('ws')).WebSocket;
  } catch (error) {
    throw new TransportError(
      'the WebSocket transport needs the optional peer dependency `ws` (npm install ws)',
      undefined,
      { cause: error },
    );
  }
}

function frameText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
