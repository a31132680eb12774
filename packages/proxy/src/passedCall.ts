import { modernErrorDisposition, type Exchange } from '@rondo/core';
import { LinkedCancellation } from '@rondo/core/internal';
import {
  isMcpError,
  type JsonRpcErrorObject,
  type JsonRpcMessage,
  type RequestId,
} from '@rondo/protocol';
import type { AnswerReceiver, Client, ProgressUpdate } from '@rondo/client';
import type { Shaping } from './passedShaping.js';
import type { ProxyProvider } from './proxyProvider.js';
import { upstreamFailure } from './roundRunner.js';

/** Who a passed-through call is for, as its record says (see `callerFacts`). */
type CallerFacts = { readonly principal?: string; readonly client?: string };

/**
 * One request passed through to an upstream, from the moment it is sent until its caller is
 * answered: the call's cancellation (aborted by the caller's `notifications/cancelled`, or with
 * its exchange when the caller is gone, heard without an `AbortSignal`), its progress and log
 * messages, and its answer, shaped. One object per call where closures would be several: a gateway
 * passes thousands of calls a second, and what each call allocates is collected as often.
 */
export class PassedCall extends LinkedCancellation implements AnswerReceiver {
  /** Forwards the upstream's log messages of this call to its caller (`LogSink`). */
  readonly log = (params: Record<string, unknown>): void =>
    this.exchange.send({ jsonrpc: '2.0', method: 'notifications/message', params });

  /**
   * `settled` is told when the call is answered (or given up), so its connection forgets it;
   * `progressToken` is the caller's, when it asked for progress.
   */
  constructor(
    readonly id: RequestId,
    private readonly exchange: Exchange,
    private readonly provider: ProxyProvider,
    private readonly shaping: Shaping,
    private readonly progressToken: RequestId | undefined,
    private readonly settled: (call: PassedCall) => void,
  ) {
    super(exchange.cancellation);
  }

  /** Sends `sent` upstream on `client` as `method`, and answers the caller when it is answered. */
  start(client: Client, method: string, sent: Record<string, unknown>, caller: CallerFacts): void {
    const token = this.progressToken;
    const onProgress =
      token === undefined
        ? undefined
        : (update: ProgressUpdate) =>
            this.exchange.send({
              jsonrpc: '2.0',
              method: 'notifications/progress',
              params: { ...update, progressToken: token },
            });
    const { provider, log } = this;
    // Most calls need no waiting besides the upstream's: no promise at all on their path.
    if (this.shaping.prepare === undefined) {
      provider.passThrough(client, method, sent, this, onProgress, log, caller, this);
      return;
    }
    this.shaping.prepare(sent).then(
      (params) => provider.passThrough(client, method, params, this, onProgress, log, caller, this),
      (error: unknown) => this.reject(error as Error),
    );
  }

  /** The upstream's result: shaped, then the caller's answer. */
  resolve(result: Record<string, unknown>): void {
    let shaped: Record<string, unknown> | Promise<Record<string, unknown>>;
    try {
      shaped = this.shaping.result(result);
    } catch (error) {
      return this.reject(error as Error);
    }
    if (!(shaped instanceof Promise)) return this.answer(shaped);
    shaped.then(
      (later) => this.answer(later),
      (error: unknown) => this.reject(error as Error),
    );
  }

  /** The upstream's refusal, or the call's failure: the caller's error answer. */
  reject(error: Error): void {
    const shaped = this.shaping.error ? this.shaping.error(error) : error;
    this.end({ jsonrpc: '2.0', id: this.id, error: wireError(this.provider.name, shaped) });
  }

  private answer(result: Record<string, unknown>): void {
    this.end({ jsonrpc: '2.0', id: this.id, result });
  }

  /** Ends the call's exchange; a cancelled call gets no answer. */
  private end(answer: JsonRpcMessage): void {
    this.settled(this);
    this.unlink();
    // Cancelled by the caller, or its connection closed: the caller has stopped waiting.
    if (this.aborted) return this.exchange.end();
    // The upstream's refusal is the gateway's: the same status the modern era gives it (400, 404).
    const code = 'error' in answer ? answer.error.code : undefined;
    this.exchange.end(answer, code === undefined ? undefined : modernErrorDisposition(code));
  }
}

/** The wire error of a failed pass-through: the upstream's own, or the gateway's precise one. */
function wireError(upstream: string, error: unknown): JsonRpcErrorObject {
  const failure = isMcpError(error) ? error : upstreamFailure(upstream, error);
  return failure.toJson();
}
