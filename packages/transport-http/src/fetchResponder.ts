import type { HttpResponse } from './edge.js';

const encoder = new TextEncoder();

/** Headers a web `Response` may not carry (the runtime owns the connection). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding']);

/**
 * The {@link HttpResponse} of a web `Request`: what the shared Streamable HTTP code writes becomes
 * one `Response`, settled when the head is final. A body written at once (`end`) is the
 * `Response` body as it is; a head flushed before the end (an SSE stream) is a `ReadableStream` the
 * later writes feed. `close` fires after `end`, or when the client goes away (the request's signal
 * aborts, or the runtime cancels the stream), like node's.
 */
export class FetchResponder implements HttpResponse {
  statusCode = 200;
  /** The `Response`, once the head is final. */
  readonly response: Promise<Response>;
  private readonly head: Record<string, string> = {};
  private settle!: (response: Response) => void;
  private stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  private headWritten = false;
  private ended = false;
  private gone = false;
  private closed = false;
  private readonly closeListeners: (() => void)[] = [];

  constructor(signal?: AbortSignal) {
    this.response = new Promise((resolve) => (this.settle = resolve));
    signal?.addEventListener('abort', () => this.abandon(), { once: true });
  }

  get headersSent(): boolean {
    return this.headWritten;
  }

  get destroyed(): boolean {
    return this.gone;
  }

  get writableEnded(): boolean {
    return this.ended;
  }

  setHeader(name: string, value: string): void {
    this.head[name.toLowerCase()] = value;
  }

  writeHead(status: number, headers: Record<string, string> = {}): void {
    this.statusCode = status;
    for (const name in headers) this.setHeader(name, headers[name] as string);
    this.headWritten = true;
  }

  flushHeaders(): void {
    if (this.stream || this.ended || this.gone) return;
    this.headWritten = true;
    // Counted in bytes with no high-water mark, so the queue's size is what the client has not
    // read yet (`writableLength`).
    const body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.stream = controller;
        },
        cancel: () => this.abandon(),
      },
      { highWaterMark: 0, size: (chunk) => chunk.byteLength },
    );
    this.settle(new Response(body, { status: this.statusCode, headers: this.headers() }));
  }

  write(chunk: string): boolean {
    if (this.ended || this.gone) return false;
    this.flushHeaders();
    this.stream?.enqueue(encoder.encode(chunk));
    return true;
  }

  end(chunk?: string | Uint8Array): void {
    if (this.ended) return;
    this.ended = true;
    this.headWritten = true;
    if (this.stream) {
      if (chunk !== undefined && !this.gone)
        this.stream.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      if (!this.gone) this.stream.close();
    } else {
      const body = chunk === undefined ? null : chunk;
      this.settle(new Response(body, { status: this.statusCode, headers: this.headers() }));
    }
    // After the end, as node emits it: listeners see a response that already ended.
    queueMicrotask(() => this.fireClose());
  }

  /** Bytes enqueued on the body stream that its reader has not taken yet. */
  get writableLength(): number {
    return Math.max(0, -(this.stream?.desiredSize ?? 0));
  }

  /** Drops the body: its reader gets an error, and nothing more is written. */
  destroy(): void {
    if (this.stream && !this.ended && !this.gone)
      this.stream.error(new Error('The client did not read the stream'));
    this.abandon();
  }

  once(_event: 'close', listener: () => void): void {
    if (this.closed) queueMicrotask(listener);
    else this.closeListeners.push(listener);
  }

  /**
   * The client went away (or its body could not be read): nothing more reaches it. A response not
   * yet settled settles empty, so the runtime is not left waiting.
   */
  abandon(): void {
    if (this.gone || this.closed) return;
    this.gone = true;
    if (!this.stream && !this.ended) this.settle(new Response(null, { status: 499 }));
    this.fireClose();
  }

  private fireClose(): void {
    if (this.closed) return;
    this.closed = true;
    for (const listener of this.closeListeners.splice(0)) listener();
  }

  /** A plain record, not `Headers`: Node bridges such as `@hono/node-server` pass it on as it is. */
  private headers(): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const name in this.head)
      if (!HOP_BY_HOP.has(name)) headers[name] = this.head[name] as string;
    return headers;
  }
}
