import type { HttpResponse } from './edge.js';
import { watchAbort, type AbortWatch } from './fetchAbort.js';

const encoder = new TextEncoder();

/** Headers a web `Response` may not carry (the runtime owns the connection). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding']);

/**
 * Bytes a streamed body holds for its reader before a write answers `false` (node's socket
 * buffer plays this part on the node edge): the SSE writer then keeps the next events as events,
 * uncopied, until the reader takes these.
 */
const BODY_HIGH_WATER_BYTES = 64 * 1024;

/** The head of the answer almost every request gets: a JSON body and nothing else. */
const JSON_ONLY = { 'content-type': 'application/json' } as const;

/**
 * The {@link HttpResponse} of a web `Request`: what the shared Streamable HTTP code writes becomes
 * one `Response`, settled when the head is final. A body written at once (`end`) is the
 * `Response` body as it is; a head flushed before the end (an SSE stream) is a `ReadableStream` the
 * later writes feed, as fast as its reader takes them (a write answers `false` once
 * {@link BODY_HIGH_WATER_BYTES} wait, and `drain` follows when the reader took them). `close` fires
 * once an ended body is read to its end, or when the client goes away (the request's signal
 * aborts, or the runtime cancels the stream), like node's.
 *
 * Cheap on the hot path, a small JSON answer: no header object beyond the one the `Response`
 * takes, and the request's signal is only watched for a response still open after this turn
 * (see `watchAbort`).
 */
export class FetchResponder implements HttpResponse {
  statusCode = 200;
  /** The `Response`, once the head is final. */
  readonly response: Promise<Response>;
  private head: Record<string, string> | undefined;
  private settle!: (response: Response) => void;
  private stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  private headWritten = false;
  private ended = false;
  /** The body stream was closed (its reader saw everything) or errored. */
  private bodyDone = false;
  private gone = false;
  private closed = false;
  /** A write answered `false`: `drain` is owed once the reader takes what waits. */
  private owesDrain = false;
  private closeListeners: (() => void)[] | undefined;
  private drainListeners: (() => void)[] | undefined;
  private readonly watch: AbortWatch | undefined;

  /** `request`: whose signal tells that the client went away. */
  constructor(request?: { readonly signal?: AbortSignal }, eager = false) {
    this.response = new Promise((resolve) => (this.settle = resolve));
    if (request) this.watch = watchAbort(request, () => this.abandon(), eager);
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
    (this.head ??= {})[name.toLowerCase()] = value;
  }

  writeHead(status: number, headers: Record<string, string> = {}): void {
    this.statusCode = status;
    for (const name in headers) this.setHeader(name, headers[name] as string);
    this.headWritten = true;
  }

  flushHeaders(): void {
    if (this.stream || this.ended || this.gone) return;
    this.headWritten = true;
    // Counted in bytes, so the queue's size is what the client has not read yet.
    const body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.stream = controller;
        },
        pull: () => this.pulled(),
        cancel: () => this.abandon(),
      },
      { highWaterMark: BODY_HIGH_WATER_BYTES, size: (chunk) => chunk.byteLength },
    );
    this.settle(new Response(body, { status: this.statusCode, headers: this.headers() }));
  }

  /** Queues a chunk of the streamed body; `false` once the reader has enough waiting. */
  write(chunk: string): boolean {
    if (this.ended || this.gone) return false;
    this.flushHeaders();
    const stream = this.stream as ReadableStreamDefaultController<Uint8Array>;
    stream.enqueue(encoder.encode(chunk));
    if ((stream.desiredSize ?? 0) > 0) return true;
    this.owesDrain = true;
    return false;
  }

  end(chunk?: string | Uint8Array): void {
    if (this.ended) return;
    this.ended = true;
    this.headWritten = true;
    if (this.stream) {
      if (chunk !== undefined && !this.gone)
        this.stream.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      // Closed (and `close` fired) once the reader took what waits; until then it is watched.
      if (!this.gone) this.closeIfRead();
      return;
    }
    this.watch?.stop();
    const body = chunk === undefined ? null : chunk;
    this.settle(new Response(body, { status: this.statusCode, headers: this.headers() }));
    // After the end, as node emits it: listeners see a response that already ended.
    queueMicrotask(() => this.fireClose());
  }

  /** Bytes enqueued on the body stream that its reader has not taken yet. */
  get writableLength(): number {
    const stream = this.stream;
    if (!stream || this.bodyDone) return 0;
    return Math.max(0, BODY_HIGH_WATER_BYTES - (stream.desiredSize ?? BODY_HIGH_WATER_BYTES));
  }

  /** Drops the body, ended or not: its reader gets an error, and nothing more is written. */
  destroy(): void {
    if (this.stream && !this.bodyDone && !this.gone) {
      this.bodyDone = true;
      this.stream.error(new Error('The client did not read the stream'));
    }
    this.abandon();
  }

  once(_event: 'close', listener: () => void): void {
    if (this.closed) queueMicrotask(listener);
    else (this.closeListeners ??= []).push(listener);
  }

  on(_event: 'drain', listener: () => void): void {
    (this.drainListeners ??= []).push(listener);
  }

  /**
   * The client went away (or its body could not be read): nothing more reaches it. A response not
   * yet settled settles empty, so the runtime is not left waiting.
   */
  abandon(): void {
    if (this.gone || this.closed) return;
    this.gone = true;
    this.watch?.stop();
    if (!this.stream && !this.ended) this.settle(new Response(null, { status: 499 }));
    this.fireClose();
  }

  /** The reader took chunks (or waits for one): pass on the room, and close an ended body it read. */
  private pulled(): void {
    if (this.ended) return this.closeIfRead();
    if (!this.owesDrain) return;
    this.owesDrain = false;
    for (const listener of this.drainListeners ?? []) listener();
  }

  /** Closes an ended body once nothing of it waits for the reader, then fires `close`. */
  private closeIfRead(): void {
    const stream = this.stream as ReadableStreamDefaultController<Uint8Array>;
    if (this.bodyDone || (stream.desiredSize ?? 0) < BODY_HIGH_WATER_BYTES) return;
    this.bodyDone = true;
    this.watch?.stop();
    stream.close();
    queueMicrotask(() => this.fireClose());
  }

  private fireClose(): void {
    if (this.closed) return;
    this.closed = true;
    this.drainListeners = undefined;
    const listeners = this.closeListeners;
    this.closeListeners = undefined;
    if (listeners) for (const listener of listeners) listener();
  }

  /** A plain record, not `Headers`: Node bridges such as `@hono/node-server` pass it on as it is. */
  private headers(): Record<string, string> {
    const head = this.head;
    if (head === undefined) return {};
    // The usual JSON answer shares one frozen record instead of a copy per response.
    if (head['content-type'] === 'application/json' && isOnlyContentType(head)) return JSON_ONLY;
    const headers: Record<string, string> = {};
    for (const name in head) if (!HOP_BY_HOP.has(name)) headers[name] = head[name] as string;
    return headers;
  }
}

function isOnlyContentType(head: Record<string, string>): boolean {
  for (const name in head) if (name !== 'content-type') return false;
  return true;
}
