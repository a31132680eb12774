import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { WebSocket, type RawData } from 'ws';
import { scaled } from '@rondo/test-support/timeFactor';

/**
 * A `Transport` for the official v2 client over the `ws` package (Node 20 has no global WebSocket):
 * one JSON-RPC message per text frame, subprotocol `mcp`. Every frame the server writes is kept in
 * `received` so tests can check the wire, not only what the client surfaced.
 */
export class WsClientTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly received: Record<string, unknown>[] = [];
  readonly sent: Record<string, unknown>[] = [];
  private socket: WebSocket | undefined;

  constructor(private readonly url: string) {}

  async start(): Promise<void> {
    const socket = new WebSocket(this.url, 'mcp');
    this.socket = socket;
    socket.on('message', (data) => {
      try {
        const message = JSON.parse(textOf(data)) as JSONRPCMessage;
        this.received.push(message);
        this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error as Error);
      }
    });
    socket.on('close', () => this.onclose?.());
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', (error) => {
        this.onerror?.(error);
        reject(error);
      });
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
    this.socket?.send(JSON.stringify(message));
  }

  async close(): Promise<void> {
    const socket = this.socket;
    if (!socket || socket.readyState === socket.CLOSED) return;
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      socket.close();
    });
  }

  /** Waits for a received message matching `predicate`. */
  async waitFor(
    predicate: (message: Record<string, unknown>) => boolean,
    timeoutMs = scaled(5000),
  ): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find(predicate);
      if (found) return found;
      if (Date.now() > deadline) throw new Error('timed out waiting for a message');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Cuts the socket without a close handshake, as a crashed peer would. */
  terminate(): void {
    this.socket?.terminate();
  }
}

/** The text of a frame as `ws` delivers it (a Buffer unless binaryType was changed). */
function textOf(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data).toString('utf8');
}
