import type { HttpRequest, HttpResponse } from './edge.js';
import { LazyAbortController } from '@rondo/core/internal';
import {
  type Cancellation,
  type Connection,
  type Disposition,
  type Exchange,
  type Principal,
} from '@rondo/core';
import type { JsonRpcMessage } from '@rondo/protocol';
import type { ResolvedHttpOptions } from './options.js';
import { reject, replyEmpty, replyJson, storeDown } from './reply.js';
import type { Session } from './sessions.js';
import type { SessionStream } from './sessionStream.js';
import { answerHead } from './refusals.js';
import { SseResponse } from './sse.js';
import type { StreamBudget } from './streamBudget.js';
import { unrefTimer, type TimerHandle } from './timers.js';

/** What the exchange of one POSTed request needs to know. */
export interface PostExchangeContext {
  req: HttpRequest;
  res: HttpResponse;
  connection: Connection;
  /** The session the POST named, if any. */
  session: Session | undefined;
  /** Registers a session for a fresh connection that became stateful; undefined when full. */
  promote(): Session | undefined;
  principal: Principal | undefined;
  /** Who the request comes from, for the per-client stream cap (see `clientOf`). */
  client: string;
  options: ResolvedHttpOptions;
  /** The SSE responses open over the handler. */
  streams: StreamBudget;
  /** Called once the response is complete or the client went away. */
  done(): void;
}

/**
 * The exchange of one POSTed request: answered as one JSON body, or as an SSE stream from the
 * first message sent before the final one. Without a session, the client closing the response is
 * the cancellation (the exchange's cancellation aborts); in a session, a dropped stream is no
 * cancellation: its events stay in the event store for a `Last-Event-ID` resumption. A class, and
 * its `AbortSignal` is created only when read: the JSON answer of a small request is the hot path.
 */
export function createPostExchange(context: PostExchangeContext): Exchange {
  return new PostExchange(context);
}

class PostExchange implements Exchange {
  readonly headers: HttpRequest['headers'];
  declare readonly principal?: Principal;
  readonly client: string;
  readonly address: string | undefined;
  private readonly controller = new LazyAbortController();
  private session: Session | undefined;
  private sse: SseResponse | undefined;
  private stream: SessionStream | undefined;
  private ended = false;
  private durationTimer: TimerHandle | undefined;
  /** Resolves the promise handed to `waitUntil` while the request runs on past its response. */
  private releaseRuntime: (() => void) | undefined;

  constructor(private readonly context: PostExchangeContext) {
    this.headers = context.req.headers;
    this.session = context.session;
    this.client = context.client;
    this.address = context.req.socket?.remoteAddress;
    // Defined only when there is one, as transports without authentication leave it out.
    if (context.principal) Object.assign(this, { principal: context.principal });
    context.res.once('close', this.onClose);
  }

  get cancellation(): Cancellation {
    return this.controller;
  }

  /** Hands work that outlives the response to the runtime's `waitUntil`, when it has one. */
  waitUntil(work: Promise<unknown>): void {
    this.context.req.waitUntil?.(work);
  }

  /** The `Mcp-Session-Id` of the legacy session this request belongs to, once there is one. */
  get sessionId(): string | undefined {
    return this.session?.id;
  }

  /**
   * Ends the response while the request runs on (SSE polling), when the session's client resumes
   * streams: the stream starts if it had not (with its priming event), then its response closes;
   * the rest, the answer included, waits in the event store for a GET with `Last-Event-ID`.
   */
  closeStream(): void {
    if (this.ended || !this.resumable()) return;
    if (!this.sse && !this.startStream()) return;
    this.stream?.detach();
  }

  send(message: JsonRpcMessage): void {
    if (this.ended) return;
    if (!this.sse && !this.startStream()) return;
    this.write(message);
  }

  end(message?: JsonRpcMessage, disposition?: Disposition): void {
    if (this.ended) return;
    this.ended = true;
    this.releaseRuntime?.();
    // The endpoint marked its connection stateful before ending, so the
    // session id goes out with this answer.
    const headers = this.sse ? undefined : this.sessionHeaders();
    if (headers === 'full') return this.refuse('too many sessions');
    // A shared session's state is saved before the answer, so the client's next request finds it
    // in whichever process it reaches.
    const saving = this.session?.persist();
    if (!saving) return this.answer(message, disposition, headers);
    saving.then(
      () => this.answer(message, disposition, headers),
      (error: unknown) => this.saveFailed(error),
    );
  }

  private answer(
    message: JsonRpcMessage | undefined,
    disposition: Disposition | undefined,
    headers: Record<string, string> | undefined,
  ): void {
    if (this.sse) {
      if (message) this.write(message);
      this.finish();
      return;
    }
    const res = this.context.res;
    if (!message) replyEmpty(res, 202, headers);
    else {
      const head = answerHead(disposition, message, this.context.options.auth, headers);
      replyJson(res, head.status, message, head.headers);
    }
    this.context.done();
  }

  /** The session's state could not be saved: 503, and a session made by this request is undone. */
  private saveFailed(error: unknown): void {
    if (this.session && this.session.savedState === undefined) this.session.close();
    if (this.sse) this.finish();
    else storeDown(this.context.res, error);
    this.context.done();
  }

  /** True when this request's stream may close early: its session's client resumes streams. */
  private resumable(): boolean {
    const { connection, options } = this.context;
    return (
      options.eventStore !== undefined &&
      connection.resumesStreams === true &&
      (this.session !== undefined || connection.stateful)
    );
  }

  private readonly onClose = (): void => {
    clearTimeout(this.durationTimer);
    if (this.ended) return;
    if (!this.session) this.controller.abort(new Error('The client closed the response'));
    // In a session the request runs on, its answer kept for a resumption: its stream's tail.
    else this.keepRuntimeUntilEnd();
    if (!this.stream) this.context.done();
  };

  /** Tells a runtime that stops pending work with the response to keep it until `end`. */
  private keepRuntimeUntilEnd(): void {
    const waitUntil = this.context.req.waitUntil;
    if (waitUntil === undefined || this.releaseRuntime !== undefined) return;
    waitUntil(new Promise<void>((resolve) => (this.releaseRuntime = resolve)));
  }

  /** The session id header; `full` when the connection became stateful but no session fits. */
  private sessionHeaders(): Record<string, string> | undefined | 'full' {
    if (!this.session && this.context.connection.stateful) {
      this.session = this.context.promote();
      if (!this.session) return 'full';
    }
    return this.session ? { 'mcp-session-id': this.session.id } : undefined;
  }

  /** Answers 503 for a session or stream that found no room; the exchange ignores what follows. */
  private refuse(reason: string): void {
    this.ended = true;
    const retryAfter = String(this.context.options.sessionRetryAfterSeconds);
    reject(this.context.res, 503, `Service Unavailable: ${reason}`, { 'retry-after': retryAfter });
    this.context.done();
  }

  /**
   * Starts the SSE answer; false (the request refused with 503) when its session found no room, or
   * a stream cap is reached. A refused stream's request is cancelled: nobody receives it anymore.
   */
  private startStream(): boolean {
    const { res, options, streams } = this.context;
    const headers = this.sessionHeaders();
    if (headers === 'full') {
      this.refuse('too many sessions');
      return false;
    }
    const full = this.streamRefusal();
    if (full !== undefined) {
      this.refuse(full);
      this.controller.abort(new Error(`Refused: ${full}`));
      return false;
    }
    streams.track(res, this.context.client);
    this.sse = new SseResponse(res, headers ?? {}, options);
    if (this.session) {
      this.stream = this.session.openStream();
      this.stream.attach(this.sse);
      if (this.session.resumable) {
        this.stream.prime(options.sseRetryMs);
        if (options.maxStreamDurationMs > 0) {
          this.durationTimer = unrefTimer(
            setTimeout(() => this.stream?.detach(), options.maxStreamDurationMs),
          );
        }
      }
    }
    return true;
  }

  /** Why no stream may open now (a cap is reached), or undefined when one may. */
  private streamRefusal(): string | undefined {
    const full = this.context.streams.refusal(this.context.client);
    if (full !== undefined) return full;
    if ((this.session?.streamCount ?? 0) >= this.context.options.maxStreamsPerSession)
      return 'too many streams in this session';
    return undefined;
  }

  private write(message: JsonRpcMessage): void {
    if (this.stream) this.stream.write(message);
    else this.sse?.write({ message });
  }

  private finish(): void {
    clearTimeout(this.durationTimer);
    if (this.stream) {
      this.stream.finish();
      this.session?.streamFinished(this.stream);
    } else {
      this.sse?.end();
    }
    this.context.done();
  }
}

/** The exchange of a notification or response, and what became of it. */
export interface QuietExchange extends Exchange {
  /** What the connection said became of the message, once it ended the exchange. */
  readonly disposition: Disposition | undefined;
}

/** The exchange of a notification or response: it has no answer to carry. */
export function quietExchange(
  req: HttpRequest,
  principal: Principal | undefined,
  ended: () => void,
): QuietExchange {
  const cancellation = new LazyAbortController();
  let disposition: Disposition | undefined;
  return {
    send: () => undefined,
    end: (_message, outcome) => {
      disposition = outcome;
      ended();
    },
    get disposition() {
      return disposition;
    },
    cancellation,
    headers: req.headers,
    ...(principal ? { principal } : {}),
  };
}
