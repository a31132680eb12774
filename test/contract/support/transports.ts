import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { WebSocket, type RawData } from 'ws';
import type { WireMessage } from '../../stdio/support/wire.js';

/** The transports the contract suite drives. */
export const TRANSPORTS = ['stdio', 'http', 'ws'] as const;
export type TransportName = (typeof TRANSPORTS)[number];

/**
 * One client connection over a transport, at the level of JSON-RPC messages: what the era
 * clients build on. Framing (lines, POST bodies and SSE, text frames) stays in here.
 */
export interface TransportDriver {
  readonly transport: TransportName;
  /** Sends one message. `headers` are HTTP headers; the other transports have none. */
  send(message: WireMessage, headers?: Record<string, string>): Promise<void>;
  /** Sends raw text as one message unit (a line, a POST body, a text frame). */
  sendText(text: string, headers?: Record<string, string>): Promise<void>;
  /** Called with every message the server writes, in arrival order. */
  onMessage(listener: (message: WireMessage) => void): void;
  /**
   * Opens the legacy session's own channel once the handshake is done: on HTTP the standalone GET
   * stream; stdio and WebSocket connections already are that channel.
   */
  openSessionChannel(headers: Record<string, string>): Promise<void>;
  /**
   * Closes the response that carries request `id`, where a request has one of its own (an HTTP
   * POST); false when the transport has no such response to close.
   */
  closeResponse(id: unknown): boolean;
  /** What the transport wrote that is not a JSON-RPC message (stdout noise, say). */
  readonly noise: string[];
  close(): Promise<void>;
}

type Listener = (message: WireMessage) => void;

abstract class BaseDriver {
  readonly noise: string[] = [];
  private readonly listeners: Listener[] = [];

  onMessage(listener: Listener): void {
    this.listeners.push(listener);
  }

  protected deliverText(text: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      this.noise.push(text);
      return;
    }
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
      for (const listener of this.listeners) listener(message as WireMessage);
    }
  }
}

/** A spawned server process: one JSON-RPC message per line on stdin and stdout. */
export class StdioDriver extends BaseDriver implements TransportDriver {
  readonly transport = 'stdio';
  readonly child: ChildProcessWithoutNullStreams;
  stderr = '';
  private rest = '';
  private readonly exited: Promise<void>;

  constructor(command: string, args: readonly string[], env: NodeJS.ProcessEnv) {
    super();
    this.child = spawn(command, args, { env, stdio: 'pipe' });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => {
      const lines = (this.rest + chunk).split('\n');
      this.rest = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') this.deliverText(line);
    });
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    this.exited = new Promise((resolve) => this.child.once('close', () => resolve()));
  }

  async send(message: WireMessage): Promise<void> {
    await this.sendText(JSON.stringify(message));
  }

  async sendText(text: string): Promise<void> {
    this.child.stdin.write(`${text}\n`);
  }

  async openSessionChannel(): Promise<void> {}

  closeResponse(): boolean {
    return false;
  }

  /** Ends stdin, then SIGTERM and SIGKILL on deadlines. */
  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.stdin.end();
    const term = setTimeout(() => this.child.kill('SIGTERM'), 2000);
    const kill = setTimeout(() => this.child.kill('SIGKILL'), 4000);
    await this.exited;
    clearTimeout(term);
    clearTimeout(kill);
  }
}

/**
 * Streamable HTTP: each message is a POST; its answer is a JSON body, an SSE stream or 202. The
 * session id of a legacy session is kept and sent on every later request, as clients do.
 */
export class HttpDriver extends BaseDriver implements TransportDriver {
  readonly transport = 'http';
  /** The status of each request's POST, by its JSON-RPC id. */
  readonly statuses = new Map<unknown, number>();
  /** The status of the last POST of raw text. */
  textStatus: number | undefined;
  private sessionId: string | undefined;
  /** Aborts every request and stream of this client at close. */
  private readonly abort = new AbortController();
  /** The POST of each request, by id, so that its response can be closed. */
  private readonly requests = new Map<unknown, AbortController>();
  private readonly reading = new Set<Promise<void>>();
  private readonly readers = new Set<ReadableStreamDefaultReader<Uint8Array>>();

  constructor(private readonly url: string) {
    super();
  }

  async send(message: WireMessage, headers: Record<string, string> = {}): Promise<void> {
    await this.post(JSON.stringify(message), headers, message.method ? message.id : undefined);
  }

  async sendText(text: string, headers: Record<string, string> = {}): Promise<void> {
    this.textStatus = await this.post(text, headers, undefined);
  }

  async openSessionChannel(headers: Record<string, string>): Promise<void> {
    const response = await this.fetch('GET', undefined, headers);
    if (response.status !== 200) throw new Error(`the GET stream answered ${response.status}`);
    this.read(response);
  }

  async close(): Promise<void> {
    this.abort.abort();
    for (const reader of this.readers) reader.cancel().catch(() => undefined);
    await Promise.allSettled([...this.reading]);
  }

  closeResponse(id: unknown): boolean {
    const controller = this.requests.get(id);
    controller?.abort();
    return controller !== undefined;
  }

  private async post(body: string, headers: Record<string, string>, id: unknown): Promise<number> {
    const controller = new AbortController();
    if (id !== undefined) this.requests.set(id, controller);
    const response = await this.fetch(
      'POST',
      body,
      { 'content-type': 'application/json', ...headers },
      controller.signal,
    );
    if (id !== undefined) this.statuses.set(id, response.status);
    this.sessionId ??= response.headers.get('mcp-session-id') ?? undefined;
    this.read(response);
    return response.status;
  }

  private async fetch(
    method: string,
    body: string | undefined,
    headers: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<Response> {
    return fetch(this.url, {
      method,
      body,
      signal: signal ? AbortSignal.any([signal, this.abort.signal]) : this.abort.signal,
      headers: {
        accept: 'application/json, text/event-stream',
        ...(this.sessionId ? { 'mcp-session-id': this.sessionId } : {}),
        ...headers,
      },
    });
  }

  /** Reads a response in the background: JSON bodies at once, SSE events as they come. */
  private read(response: Response): void {
    const task = this.readBody(response).catch(() => undefined);
    this.reading.add(task);
    void task.finally(() => this.reading.delete(task));
  }

  private async readBody(response: Response): Promise<void> {
    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('text/event-stream')) {
      const text = await response.text();
      if (text.trim() !== '') this.deliverText(text);
      return;
    }
    const body = response.body;
    if (!body) return;
    // An explicit reader, so close() can cancel a stream whose abort raced its end.
    const reader = body.getReader();
    this.readers.add(reader);
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { done, value: chunk } = await reader.read();
      if (done) break;
      buffer += decoder.decode(chunk, { stream: true }).replace(/\r\n/g, '\n');
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = event
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).replace(/^ /, ''))
          .join('\n');
        if (data !== '') this.deliverText(data);
      }
    }
  }
}

/** WebSocket with the `mcp` subprotocol: one JSON-RPC message per text frame. */
export class WsDriver extends BaseDriver implements TransportDriver {
  readonly transport = 'ws';
  private constructor(private readonly socket: WebSocket) {
    super();
    socket.on('message', (data) => this.deliverText(frameText(data)));
  }

  static async connect(url: string): Promise<WsDriver> {
    const socket = new WebSocket(url, 'mcp');
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new WsDriver(socket);
  }

  async send(message: WireMessage): Promise<void> {
    await this.sendText(JSON.stringify(message));
  }

  async sendText(text: string): Promise<void> {
    this.socket.send(text);
  }

  async openSessionChannel(): Promise<void> {}

  closeResponse(): boolean {
    return false;
  }

  async close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }
}

function frameText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data).toString('utf8');
}
