import type { Cancellation } from '@rondo/core';
import { LazyAbortController } from '@rondo/core/internal';
import { ErrorCode, isMcpError, type JsonRpcMessage } from '@rondo/protocol';
import {
  ACCEPTED,
  LOG,
  PROGRESS,
  readRoundRequest,
  roundNotice,
  type RoundRequest,
} from './relayMessages.js';
import type { RoundCaller, RoundOutcome } from './roundRunner.js';

/** Sends `message` to the proxy whose relay id is `to`. */
export type RelaySend = (to: string, message: JsonRpcMessage) => void;

/**
 * The holder's side of relayed rounds: runs the rounds other processes ask for, of the suspended
 * calls this process holds, exactly as a local retry would (the same owner check, answers, timeout
 * and next suspension), and sends back an acknowledgement at once, the round's progress and log
 * messages while it runs, and its outcome or error. Rounds running at once are bounded; one more
 * is refused with an error the asking process passes on.
 */
export class RoundHost {
  /** The rounds running here, by asker and round id, to cancel them. */
  private readonly running = new Map<string, LazyAbortController>();

  constructor(
    private readonly upstreamName: string,
    private readonly send: RelaySend,
    private readonly serve: (request: RoundRequest, caller: RoundCaller) => Promise<RoundOutcome>,
    private readonly report: (message: string) => void,
    private readonly maxRunning: number,
  ) {}

  /** Rounds running for other processes now. */
  get size(): number {
    return this.running.size;
  }

  /** Runs the round a relayed `rondo/proxy/round` request asks for; a malformed one is reported. */
  accept(id: unknown, params: unknown): void {
    const request = readRoundRequest(id, params);
    if (request === undefined) {
      this.report('ignored a malformed relayed round request');
      return;
    }
    const key = `${request.from} ${request.round}`;
    if (this.running.has(key)) {
      this.report(`ignored a repeated relayed round ${request.round}`);
      return;
    }
    this.send(request.from, roundNotice(ACCEPTED, request.round));
    if (request.upstream !== this.upstreamName) {
      this.fail(
        request,
        ErrorCode.InternalError,
        `The gateway process holding the call serves upstream "${this.upstreamName}", not "${request.upstream}"`,
      );
      return;
    }
    if (this.running.size >= this.maxRunning) {
      this.fail(
        request,
        ErrorCode.InternalError,
        'The gateway process holding the call runs too many relayed rounds; try again later',
      );
      return;
    }
    const controller = new LazyAbortController();
    this.running.set(key, controller);
    void this.serve(request, this.callerOf(request, controller))
      .then(
        (outcome) =>
          this.send(request.from, { jsonrpc: '2.0', id: request.round, result: { ...outcome } }),
        (error: unknown) => {
          const body = isMcpError(error)
            ? error.toJson()
            : {
                code: ErrorCode.InternalError,
                message: error instanceof Error ? error.message : String(error),
              };
          this.send(request.from, { jsonrpc: '2.0', id: request.round, error: body });
        },
      )
      .finally(() => this.running.delete(key));
  }

  /** Cancels the round a relayed `rondo/proxy/cancel` names (its asker's client went away). */
  cancel(params: Record<string, unknown>): void {
    const key = `${String(params.from)} ${String(params.round)}`;
    this.running
      .get(key)
      ?.abort(new Error('The client left while another gateway process waited for the round'));
  }

  /** Cancels every round running here (the provider closes). */
  close(): void {
    for (const controller of this.running.values())
      controller.abort(new Error('The gateway is closing'));
    this.running.clear();
  }

  private callerOf(request: RoundRequest, cancellation: Cancellation): RoundCaller {
    return {
      principalId: request.principal,
      answers: request.answers,
      cancellation,
      progress: (update) =>
        this.send(request.from, roundNotice(PROGRESS, request.round, { ...update })),
      log: (params) => this.send(request.from, roundNotice(LOG, request.round, { ...params })),
    };
  }

  private fail(request: RoundRequest, code: number, message: string): void {
    this.send(request.from, { jsonrpc: '2.0', id: request.round, error: { code, message } });
  }
}
