import { WebSocket } from 'ws';
import type { WireMessage } from '../../stdio/support/wire.js';

/** A small WebSocket JSON-RPC client: requests matched to answers by id. */
export class WsClient {
  private readonly pending = new Map<
    string | number,
    { resolve: (message: WireMessage) => void; reject: (error: Error) => void }
  >();
  private nextId = 1;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString('utf8')) as WireMessage;
      if (message.method !== undefined || message.id === undefined || message.id === null) return;
      const waiter = this.pending.get(message.id);
      this.pending.delete(message.id);
      waiter?.resolve(message);
    });
    socket.once('close', () => {
      for (const waiter of this.pending.values()) waiter.reject(new Error('the socket closed'));
      this.pending.clear();
    });
  }

  static async connect(url: string): Promise<WsClient> {
    const socket = new WebSocket(url, 'mcp');
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    return new WsClient(socket);
  }

  /** Sends a request built for a fresh id and waits for its answer. */
  request(build: (id: number) => Record<string, unknown>): Promise<WireMessage> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.socket.readyState !== WebSocket.OPEN)
        return reject(new Error('the socket is not open'));
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify(build(id)));
    });
  }

  close(): void {
    this.socket.close();
  }
}
