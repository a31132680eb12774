import type { Client, ClientHandlers, ProgressUpdate } from '@rondo/client';
import type { Cancellation } from '@rondo/core';
import { LazyAbortController } from '@rondo/core/internal';
import type { GateSlot } from './gate.js';
import { ErrorCode, McpError } from '@rondo/protocol';

/** The client capability each question needs. */
const CAPABILITY_OF: Readonly<Record<string, string>> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** Questions one call may have open at once. */
export const MAX_OPEN_ASKS = 16;

/** A question the upstream asked during a call, waiting for the downstream client's answer. */
export interface PendingAsk {
  readonly method: string;
  readonly params: unknown;
  /** The upstream's key for it, when it asked with an `input_required` round. */
  readonly key: string | undefined;
  answer(result: unknown): void;
  refuse(error: Error): void;
}

/** What a call does next: it finished, failed, or asks questions. */
export type CallEvent =
  | { readonly kind: 'done'; readonly result: Record<string, unknown> }
  | { readonly kind: 'failed'; readonly error: unknown }
  | { readonly kind: 'asks'; readonly asks: readonly PendingAsk[] };

/** Where a call's progress and log messages go while a downstream round serves it. */
export interface CallListener {
  progress(update: ProgressUpdate): void;
}

/**
 * One request to an upstream server, seen as a stream of events: the questions the upstream asks
 * while it runs (each waiting for an answer) and its end. A downstream round waits for the next
 * event; between rounds the call stays open, held by the suspension table.
 */
export class UpstreamCall {
  readonly controller = new LazyAbortController();
  /** The connection the call runs on, once it has one (log messages of that connection reach it). */
  upstream: Client | undefined;
  private readonly asks: PendingAsk[] = [];
  private ending: CallEvent | undefined;
  private wake: (() => void) | undefined;
  private listener: CallListener | undefined;
  private asked = 0;
  /** The questions sent downstream and not answered yet, by input request key. */
  readonly outstanding = new Map<string, PendingAsk>();

  /** The handlers the upstream's questions go to: each becomes a pending ask of this call. */
  readonly handlers: ClientHandlers = {
    elicitation: (params, context) => this.ask('elicitation/create', params, context.key) as never,
    sampling: (params, context) => this.ask('sampling/createMessage', params, context.key) as never,
    roots: async (context) =>
      ((await this.ask('roots/list', {}, context.key)) as { roots: never }).roots,
  };

  /**
   * `share`: who the call counts as for the suspension caps (see `callerKey`); `slot`: its slot
   * of the upstream's concurrency gate, given up while the call waits for its caller.
   */
  constructor(
    readonly share: string,
    readonly slot: GateSlot,
    /** The input capabilities the caller declared (`elicitation`, `sampling`, `roots`). */
    private readonly declared: Readonly<Record<string, unknown>>,
  ) {}

  /** Starts the call with `send`, which runs the upstream request with this call's handlers. */
  start(send: (call: UpstreamCall) => Promise<Record<string, unknown>>): this {
    send(this).then(
      (result) => this.end({ kind: 'done', result }),
      (error: unknown) => this.end({ kind: 'failed', error }),
    );
    return this;
  }

  /** Routes progress to the round now serving the call (`undefined`: none, progress is dropped). */
  attach(listener: CallListener | undefined): void {
    this.listener = listener;
  }

  /** Progress of the upstream request. */
  progress(update: ProgressUpdate): void {
    this.listener?.progress(update);
  }

  /** Whether the call has ended (its last event may still be unread). */
  get ended(): boolean {
    return this.ending !== undefined;
  }

  /**
   * The next event: the questions asked so far (gathered for one tick, since a modern upstream
   * asks several at once), else the end. Rejects with `timeout` when neither comes in time, and
   * when `cancellation` aborts.
   */
  async next(
    timeoutMs: number,
    cancellation: Cancellation,
    timeout: () => Error,
  ): Promise<CallEvent> {
    if (this.asks.length === 0 && this.ending === undefined) {
      await new Promise<void>((resolve, reject) => {
        let stopHearing = (): void => undefined;
        const timer = timeoutMs > 0 ? setTimeout(() => done(timeout()), timeoutMs) : undefined;
        const done = (error?: Error): void => {
          clearTimeout(timer);
          stopHearing();
          this.wake = undefined;
          if (error) reject(error);
          else resolve();
        };
        if (cancellation.aborted) return done(cancellation.reason as Error);
        stopHearing = cancellation.onAbort((reason) => done(reason as Error));
        this.wake = () => done();
      });
    }
    // A modern upstream asks several questions in one round: gather those of this turn.
    if (this.asks.length > 0) await new Promise((resolve) => setImmediate(resolve));
    if (this.asks.length > 0) return { kind: 'asks', asks: this.asks.splice(0) };
    return (
      this.ending ?? { kind: 'failed', error: new Error('the upstream call produced no event') }
    );
  }

  /** Gives a question its input request key (unique over the call) and marks it outstanding. */
  keyFor(ask: PendingAsk): string {
    this.asked += 1;
    // The upstream's own key when it gave one (a modern upstream's round), else a made-up one.
    const key =
      ask.key !== undefined && !this.outstanding.has(ask.key) ? ask.key : `upstream-${this.asked}`;
    this.outstanding.set(key, ask);
    return key;
  }

  /** Abandons the call: the upstream request is cancelled, its open questions refused. */
  abandon(reason: string): void {
    for (const ask of [...this.asks.splice(0), ...this.outstanding.values()]) {
      ask.refuse(new McpError(ErrorCode.InternalError, reason));
    }
    this.outstanding.clear();
    this.controller.abort(new Error(reason));
  }

  private ask(method: string, params: unknown, key: string | undefined): Promise<unknown> {
    if (this.ending) return Promise.reject(new Error('the call has ended'));
    // What the caller cannot answer is refused to the upstream, as the caller itself would: a
    // question the upstream asks outside any call (server-everything's roots at start) is not
    // turned into a round the caller must fail on.
    const capability = CAPABILITY_OF[method];
    if (capability !== undefined && this.declared[capability] === undefined) {
      return Promise.reject(
        new McpError(
          ErrorCode.MethodNotFound,
          `The caller of this call did not declare the ${capability} capability`,
        ),
      );
    }
    // An upstream asking faster than anyone answers is refused rather than queued without end.
    if (this.asks.length >= MAX_OPEN_ASKS) {
      return Promise.reject(
        new McpError(ErrorCode.InternalError, `At most ${MAX_OPEN_ASKS} open questions per call`),
      );
    }
    return new Promise((answer, refuse) => {
      this.asks.push({ method, params, key, answer, refuse });
      this.wake?.();
    });
  }

  private end(event: CallEvent): void {
    this.ending = event;
    this.wake?.();
  }
}
