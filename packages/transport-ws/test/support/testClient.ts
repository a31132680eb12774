import type { IncomingMessage } from 'node:http';
import { WebSocket, type ClientOptions, type RawData } from 'ws';

/** A `ws` client that collects every JSON message and the close code, for transport tests. */
export class TestClient {
  readonly messages: Record<string, unknown>[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: (() => void)[] = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.messages.push(JSON.parse(textOf(data)) as Record<string, unknown>);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
    );
  }

  /** Connects offering `protocols` (default `mcp`). */
  static async open(
    url: string,
    protocols: string[] = ['mcp'],
    options: ClientOptions = {},
  ): Promise<TestClient> {
    const socket = new WebSocket(url, protocols, options);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new TestClient(socket);
  }

  /** Sends a message as one text frame. */
  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }

  /** Sends a request and waits for its response. */
  async request(
    id: number | string,
    method: string,
    params?: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    this.send({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
    return this.waitFor((message) => message.id === id && !('method' in message));
  }

  /** Waits for a message matching `predicate`. */
  async waitFor(
    predicate: (message: Record<string, unknown>) => boolean,
    timeoutMs = 5000,
  ): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(predicate);
      if (found) return found;
      if (Date.now() > deadline) throw new Error('timed out waiting for a message');
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }

  close(): void {
    this.socket.close();
  }
}

/** Attempts a handshake that the server should refuse; resolves with the HTTP answer. */
export function refusedHandshake(
  url: string,
  protocols: string[],
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, protocols, { headers });
    socket.on('open', () => reject(new Error('the handshake was accepted')));
    socket.on('error', () => undefined);
    socket.on('unexpected-response', (_request, response: IncomingMessage) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += String(chunk)));
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, body });
        socket.terminate();
      });
    });
  });
}

/** Polls `condition` until it holds or `timeoutMs` passes. */
export async function eventually(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition did not hold in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The text of a frame as `ws` delivers it (a Buffer unless binaryType was changed). */
function textOf(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data).toString('utf8');
}
