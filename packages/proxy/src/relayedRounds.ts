import { randomBytes } from 'node:crypto';
import type { SessionRelay, StateKey } from '@rondo/core';
import { RelaySeal, type RelayRefusal } from './relaySeal.js';
import { ErrorCode, McpError, isPlainObject, type JsonRpcMessage } from '@rondo/protocol';
import {
  ACCEPTED,
  CANCEL,
  LOG,
  PROGRESS,
  ROUND,
  readError,
  readLog,
  readOutcome,
  readProgress,
  relayAddress,
  roundNotice,
  roundRequestMessage,
  type RoundRequest,
} from './relayMessages.js';
import { RoundHost } from './roundHost.js';
import type { RoundCaller, RoundOutcome, RoundRelay } from './roundRunner.js';

/** Bounds of the rounds a proxy relays to the processes holding their calls. */
export interface RelayLimits {
  /** How long the process holding a call has to acknowledge a relayed round (ms). Default 5,000. */
  readonly relayAckMs?: number;
  /** Rounds relayed at once at most, awaited here and run here for others each. Default 256. */
  readonly maxRelayedRounds?: number;
  /**
   * The key ring relayed messages are sealed under (encrypted and authenticated, see `RelaySeal`);
   * default the state keys of `RONDO_STATE_KEYS` / `RONDO_STATE_KEY`. Every replica needs the same.
   */
  readonly relayKeys?: readonly StateKey[];
}

/** How long an acknowledged round may take when the upstream has no timeout (one hour). */
const UNTIMED_ROUND_MS = 3_600_000;

/** A round relayed to the process holding its call, waiting for the answer. */
interface AwaitedRound {
  readonly caller: RoundCaller;
  accepted(): void;
  settle(message: JsonRpcMessage): void;
}

/** What a proxy relays rounds for: its upstream, and how it runs a round of a call it holds. */
export interface RelayedRoundsOptions {
  readonly upstreamName: string;
  /** The upstream's deadline for its next move (ms; 0 for none), which the holder keeps. */
  readonly timeoutMs: number;
  /** Runs the round of a call this process holds (for another process). */
  readonly serve: (request: RoundRequest, caller: RoundCaller) => Promise<RoundOutcome>;
  /** Told of relayed messages ignored (malformed, or of a round no longer awaited). */
  readonly report: (message: string) => void;
}

/**
 * The rounds of suspended calls that cross processes: a retry landing on a process that does not
 * hold its call is sent over the {@link SessionRelay} to the process the sealed state names (each
 * proxy has a random relay id), which runs the round as a local retry would and sends the outcome
 * back (see {@link RoundHost}). The holder acknowledges at once, so a holder that stopped is known
 * after {@link RelayLimits.relayAckMs}; an acknowledged round gets the upstream's timeout on top.
 * Rounds awaited at once are bounded, and malformed relayed messages are ignored and reported.
 */
export class RelayedRounds implements RoundRelay {
  /** This proxy's id on the relay, in the states it issues. */
  readonly holderId = randomBytes(12).toString('base64url');
  private readonly awaited = new Map<string, AwaitedRound>();
  private readonly host: RoundHost;
  private readonly stopReceiving: () => void;
  private readonly ackMs: number;
  private readonly max: number;
  private readonly seal: RelaySeal;

  constructor(
    private readonly relay: SessionRelay,
    limits: RelayLimits,
    private readonly options: RelayedRoundsOptions,
  ) {
    this.ackMs = limits.relayAckMs ?? 5000;
    this.max = limits.maxRelayedRounds ?? 256;
    this.host = new RoundHost(
      options.upstreamName,
      (to, message) => this.send(to, message),
      options.serve,
      options.report,
      this.max,
    );
    const own = relayAddress(this.holderId);
    this.seal = new RelaySeal(limits.relayKeys);
    this.stopReceiving = relay.receive((sessionId, relayed) => {
      if (sessionId !== own) return;
      const message = this.seal.open(own, relayed);
      if (typeof message === 'string') {
        this.options.report(`refused a relayed message (${REFUSALS[message]})`);
      } else {
        this.receive(message);
      }
    });
  }

  /** Rounds awaited from other processes now. */
  get awaiting(): number {
    return this.awaited.size;
  }

  /** Rounds run here for other processes now. */
  get hosting(): number {
    return this.host.size;
  }

  /**
   * Sends the round of suspended call `call` to the proxy `holder` and resolves with what it
   * answers; rejects with a precise error when no process acknowledges it in time, when the
   * holder fails the round, or when more rounds than the bound are awaited.
   */
  resume(holder: string, call: string, method: string, caller: RoundCaller): Promise<RoundOutcome> {
    const upstream = this.options.upstreamName;
    if (this.awaited.size >= this.max) {
      throw new McpError(
        ErrorCode.InternalError,
        'The gateway awaits too many rounds from other gateway processes; try again later',
      );
    }
    const { cancellation } = caller;
    if (cancellation.aborted) {
      const reason = cancellation.reason;
      return Promise.reject(reason instanceof Error ? reason : new Error(String(reason)));
    }
    const round = randomBytes(12).toString('base64url');
    const request: RoundRequest = {
      round,
      from: this.holderId,
      upstream,
      method,
      call,
      principal: caller.principalId,
      answers: { ...caller.answers },
    };
    const reply = this.awaitReply(request, holder, caller);
    this.relay
      .forward(
        relayAddress(holder),
        this.seal.seal(relayAddress(holder), roundRequestMessage(request)),
      )
      .catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        this.awaited.get(round)?.settle({
          jsonrpc: '2.0',
          id: round,
          error: {
            code: ErrorCode.InternalError,
            message: `The gateway could not reach the process holding the call to upstream "${upstream}": ${reason}`,
          },
        });
      });
    return reply;
  }

  /** Stops hearing the relay; rounds awaited fail and rounds run for others are cancelled. */
  close(reason: string): void {
    this.stopReceiving();
    for (const awaited of [...this.awaited.values()]) {
      awaited.settle({
        jsonrpc: '2.0',
        id: null,
        error: { code: ErrorCode.InternalError, message: reason },
      });
    }
    this.host.close();
  }

  /**
   * Awaits the holder's reply to `request`: its acknowledgement within the ack deadline, then its
   * outcome within the upstream's timeout (plus the ack deadline); the caller's abort cancels it.
   */
  private awaitReply(
    request: RoundRequest,
    holder: string,
    caller: RoundCaller,
  ): Promise<RoundOutcome> {
    const { round, upstream, method } = request;
    return new Promise<RoundOutcome>((resolve, reject) => {
      let stopHearing = (): void => undefined;
      const finish = (result: Error | RoundOutcome): void => {
        clearTimeout(timer);
        stopHearing();
        this.awaited.delete(round);
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
      const onAbort = (reason: unknown): void => {
        this.send(holder, roundNotice(CANCEL, round, { from: this.holderId }));
        finish(reason as Error);
      };
      let timer = setTimeout(() => finish(noHolder(upstream, holder, this.ackMs)), this.ackMs);
      this.awaited.set(round, {
        caller,
        accepted: () => {
          clearTimeout(timer);
          const roundMs = (this.options.timeoutMs || UNTIMED_ROUND_MS) + this.ackMs;
          const late = new McpError(
            ErrorCode.InternalError,
            `The gateway process holding the call to upstream "${upstream}" did not answer ${method} within ${roundMs} ms`,
            { upstream, holder },
          );
          timer = setTimeout(() => finish(late), roundMs);
        },
        settle: (message) => {
          const outcome = readReply(message);
          if (outcome === undefined) {
            this.options.report(`a malformed reply to relayed round ${round}`);
            return finish(
              new McpError(
                ErrorCode.InternalError,
                `The gateway process holding the call to upstream "${upstream}" sent a malformed reply`,
              ),
            );
          }
          finish(outcome);
        },
      });
      stopHearing = caller.cancellation.onAbort(onAbort);
    });
  }

  private receive(message: JsonRpcMessage): void {
    if (!('method' in message)) {
      const awaited = typeof message.id === 'string' ? this.awaited.get(message.id) : undefined;
      // A reply after its deadline finds nothing: the client already had its error.
      awaited?.settle(message);
      return;
    }
    if ('id' in message) {
      if (message.method === ROUND) this.host.accept(message.id, message.params);
      else this.options.report(`ignored a relayed request ${message.method}`);
      return;
    }
    const params = message.params;
    if (!isPlainObject(params) || typeof params.round !== 'string') {
      this.options.report(`ignored a malformed relayed ${message.method}`);
      return;
    }
    if (message.method === CANCEL) return this.host.cancel(params);
    const awaited = this.awaited.get(params.round);
    if (awaited === undefined) return;
    if (message.method === ACCEPTED) return awaited.accepted();
    if (message.method === PROGRESS) {
      const update = readProgress(params);
      if (update) return awaited.caller.progress(update);
    } else if (message.method === LOG) {
      const log = readLog(params);
      if (log) return awaited.caller.log(log);
    }
    this.options.report(`ignored a malformed relayed ${message.method}`);
  }

  private send(to: string, message: JsonRpcMessage): void {
    const address = relayAddress(to);
    this.relay
      .forward(address, this.seal.seal(address, message))
      .catch((error: unknown) =>
        this.options.report(`could not relay a message: ${(error as Error).message}`),
      );
  }
}

/** What each refusal of a relayed message means, for the report. */
const REFUSALS: Record<RelayRefusal, string> = {
  malformed: 'not a sealed message',
  unauthentic: "it failed authentication: not sealed with this gateway's keys, or altered",
  expired: 'sealed too long ago',
  replayed: 'a replay of a message already received',
};

/** The error of a round no process acknowledged: its holder has stopped. */
function noHolder(upstream: string, holder: string, ackMs: number): McpError {
  return new McpError(
    ErrorCode.InternalError,
    `No gateway process answered for the suspended call to upstream "${upstream}" (held by process ${holder}) within ${ackMs} ms: that process has stopped or lost the shared state; call again`,
    { upstream, holder },
  );
}

/** A holder's reply as the round's outcome or error; `undefined` when it is malformed. */
function readReply(message: JsonRpcMessage): RoundOutcome | McpError | undefined {
  if ('error' in message) {
    const error = readError(message.error);
    return error && new McpError(error.code, error.message, error.data);
  }
  return 'result' in message ? readOutcome(message.result) : undefined;
}
