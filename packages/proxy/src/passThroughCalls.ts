import {
  RequestTimeoutError,
  type AnswerReceiver,
  type Client,
  type ProgressUpdate,
  type ServerFacts,
} from '@rondo/client';
import type { Cancellation } from '@rondo/core';
import { ShortLivedSet } from '@rondo/core/internal';
import { ErrorCode, McpError, TASKS_EXTENSION, isPlainObject } from '@rondo/protocol';
import { observed, passThroughFacts, type CallObserver } from './callRecords.js';
import { upstreamFailure, type RoundServices } from './roundRunner.js';

/** Where a passed-through call's log messages go: the upstream's `notifications/message` params. */
export type LogSink = (params: Record<string, unknown>) => void;

/**
 * The calls one proxy passes through to its upstream as they came (see `withPassThrough`): each
 * counts against the proxy's concurrency gate and timeout like a translated call, its log sink is
 * known while it runs, so the upstream's log messages can reach it, and `observer` is told how it
 * ended (the record of an `onCall`).
 */
export class PassThroughCalls {
  /** The log sinks of the calls passed through now. */
  readonly sinks = new ShortLivedSet<LogSink>();

  constructor(
    private readonly services: RoundServices,
    private readonly observer?: CallObserver,
  ) {}

  /**
   * Sends a modern caller's request `params` on `client` as they are (a `tools/call` with the
   * caller's `_meta`, its `requestState` and `inputResponses` on a retry; a `tasks/get` of a task
   * the upstream created) and returns the upstream's result unchecked, `input_required` rounds and
   * task handles included, for the caller to check. An upstream failure becomes the same precise
   * error as on the translating path. `caller` says who it is for, in the call's record.
   */
  call(
    client: Client,
    method: string,
    params: Record<string, unknown>,
    cancellation: Cancellation,
    onProgress: ((update: ProgressUpdate) => void) | undefined,
    log: LogSink,
    caller: { readonly principal?: string; readonly client?: string },
  ): Promise<Record<string, unknown>> {
    // Unobserved, a call is only its request: no record, and no promise around its own.
    if (this.observer === undefined) {
      return this.send(client, method, params, cancellation, onProgress, log);
    }
    const facts = passThroughFacts(this.services.upstreamName, method, params, caller);
    return observed(this.observer, facts, () =>
      this.send(client, method, params, cancellation, onProgress, log),
    );
  }

  /**
   * {@link call}, with the answer given to `receiver`: a call that takes a free slot of the gate
   * and has no observer makes no promise on its way (a gateway passes thousands a second).
   */
  callTo(
    client: Client,
    method: string,
    params: Record<string, unknown>,
    cancellation: Cancellation,
    onProgress: ((update: ProgressUpdate) => void) | undefined,
    log: LogSink,
    caller: { readonly principal?: string; readonly client?: string },
    receiver: AnswerReceiver,
  ): void {
    if (this.observer !== undefined || !this.services.gate.tryAcquire()) {
      this.call(client, method, params, cancellation, onProgress, log, caller).then(
        (result) => receiver.resolve(result),
        (error: unknown) => receiver.reject(error as Error),
      );
      return;
    }
    this.sinks.add(log);
    const { timeoutMs } = this.services;
    const answer = new SlotAnswer(this, log, method, receiver);
    client.forwardTo(method, params, answer, { cancellation, timeoutMs, onProgress });
  }

  /** Frees what a call held while it ran: its log sink and its slot of the gate. */
  finished(log: LogSink): void {
    this.sinks.delete(log);
    this.services.gate.release();
  }

  /** The precise error of a failed call: the proxy's timeout, or the upstream's failure. */
  failure(method: string, error: unknown): Error {
    const { timeoutMs, upstreamName } = this.services;
    if (error instanceof RequestTimeoutError) {
      return new McpError(
        ErrorCode.InternalError,
        `Upstream "${upstreamName}" did not answer ${method} within ${timeoutMs} ms`,
      );
    }
    return upstreamFailure(upstreamName, error);
  }

  private async send(
    client: Client,
    method: string,
    params: Record<string, unknown>,
    cancellation: Cancellation,
    onProgress: ((update: ProgressUpdate) => void) | undefined,
    log: LogSink,
  ): Promise<Record<string, unknown>> {
    const { gate, timeoutMs } = this.services;
    // A free slot is taken at once: no signal is made unless the call has to queue.
    if (!gate.tryAcquire()) await gate.acquire(cancellation);
    this.sinks.add(log);
    try {
      return await client.forward(method, params, { cancellation, timeoutMs, onProgress });
    } catch (error) {
      throw this.failure(method, error);
    } finally {
      this.finished(log);
    }
  }
}

/** The answer of one call that holds a slot of the gate: the slot is freed before it is passed on. */
class SlotAnswer implements AnswerReceiver {
  constructor(
    private readonly calls: PassThroughCalls,
    private readonly log: LogSink,
    private readonly method: string,
    private readonly receiver: AnswerReceiver,
  ) {}

  resolve(result: Record<string, unknown>): void {
    this.calls.finished(this.log);
    this.receiver.resolve(result);
  }

  reject(error: Error): void {
    this.calls.finished(this.log);
    this.receiver.reject(this.calls.failure(this.method, error));
  }
}

/**
 * The connection a modern caller's request of `revision` can be passed through on as it is: the
 * upstream is connected (`client`) in the modern era at that very revision, so nothing needs
 * translating; `undefined` otherwise.
 */
export function passableClient(client: Client | undefined, revision: unknown): Client | undefined {
  if (client === undefined || client.era !== 'modern') return undefined;
  return client.server.protocolVersion === revision ? client : undefined;
}

/** True when an upstream connected in the modern era announces the Tasks extension. */
export function announcesTasks(facts: ServerFacts | undefined): boolean {
  if (facts?.era !== 'modern') return false;
  const extensions = facts.capabilities.extensions;
  return isPlainObject(extensions) && isPlainObject(extensions[TASKS_EXTENSION]);
}
