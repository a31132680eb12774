import {
  ServerExitedError,
  type CallOptions,
  type Client,
  type ProgressUpdate,
} from '@rondo/client';
import type { Cancellation, HandlerContext } from '@rondo/core';
import type { ShortLivedMap } from '@rondo/core/internal';
import {
  ErrorCode,
  McpError,
  inputRequest,
  inputRequired,
  isMcpError,
  isPlainObject,
  type InputRequest,
  type Json,
  type JsonObject,
  type LoggingMessageNotificationParams,
  type RoundResult,
} from '@rondo/protocol';
import { GateSlot, type Gate } from './gate.js';
import { callerKey } from './isolation.js';
import type { UpstreamLease } from './linkPool.js';
import { redactForCaller } from './redaction.js';
import type { SuspendedCalls } from './suspendedCalls.js';
import { UpstreamCall, type PendingAsk } from './upstreamCall.js';
import { inputRequestFromWire, inputResponseToWire } from './wireResults.js';

/** The member of a round's state that names the suspended upstream call. */
const STATE_KEY = 'upstreamCall';
/** The member of a round's state that names the process holding the call (with a relay). */
const HOLDER_KEY = 'holder';

/**
 * Who a round runs for: the downstream request, in this process or relayed from another one.
 * Everything in it can cross a relay as JSON.
 */
export interface RoundCaller {
  /** The principal the call belongs to (the suspension's owner). */
  readonly principalId: string | undefined;
  /** The retry's answers in the upstream's wire form, by input request key. */
  readonly answers: Readonly<Record<string, Record<string, unknown>>>;
  readonly cancellation: Cancellation;
  progress(update: ProgressUpdate): void;
  log(params: LoggingMessageNotificationParams): void;
}

/** What one round of an upstream call came to, before it is converted for its caller. */
export type RoundOutcome =
  | { readonly kind: 'done'; readonly result: Record<string, unknown> }
  | { readonly kind: 'input'; readonly requests: InputRequest[]; readonly call: string };

/** A suspended call a retry names, and the process holding it when the state says. */
export interface CallAddress {
  readonly call: string;
  readonly holder: string | undefined;
}

/** How a round reaches a suspended call another process holds (see `RelayedRounds`). */
export interface RoundRelay {
  /** This process's id in the states it issues. */
  readonly holderId: string;
  /** Runs the next round of suspended call `call` in the process `holder` (a relay id). */
  resume(holder: string, call: string, method: string, caller: RoundCaller): Promise<RoundOutcome>;
}

/** What a round needs from its provider. */
export interface RoundServices {
  readonly upstreamName: string;
  /** The connection a call of `ctx` runs on (its caller's own with isolation), lent for the call. */
  lease(ctx: HandlerContext): Promise<UpstreamLease>;
  readonly gate: Gate;
  readonly suspended: SuspendedCalls;
  /** Deadline for the upstream's next move (an answer or a question), ms; 0 for none. */
  readonly timeoutMs: number;
  /** The calls serving a round now, with their caller (log messages go to them). */
  readonly active: ShortLivedMap<UpstreamCall, RoundCaller>;
  /** Reaches the other processes, when they share state. */
  readonly relay?: RoundRelay;
  /** Sends a round's upstream request (default `client.request`; a legacy task-only tool's differs). */
  readonly send?: UpstreamSend;
}

/** How the upstream request of a round is sent and its result read. */
export type UpstreamSend = (
  client: Client,
  method: string,
  params: Record<string, unknown>,
  options: CallOptions,
) => Promise<Record<string, unknown>>;

const sendRequest: UpstreamSend = (client, method, params, options) =>
  client.request(method, params, options);

/**
 * Runs one downstream round of a round method (`tools/call`, `prompts/get`, `resources/read`)
 * against the upstream. The first round starts the upstream request; when the upstream asks its
 * client something, the round ends with `input_required` carrying those questions and a state
 * naming the call, which waits in the suspension table; the retry's answers go to the upstream's
 * pending requests and the next round waits for the upstream's next move. A retry naming a call
 * another process holds is run there, over the relay. Both eras take this path: the legacy shim
 * turns the questions into server-to-client requests.
 */
export async function runRound<R>(
  services: RoundServices,
  method: string,
  params: Record<string, unknown>,
  ctx: HandlerContext,
  convert: (result: Record<string, unknown>) => R,
): Promise<R | RoundResult<R>> {
  const address = callAddress(ctx.requestState);
  const caller = callerOf(ctx);
  let outcome: RoundOutcome;
  let holder = services.relay?.holderId;
  if (address === undefined) {
    outcome = await playRound(services, method, startCall(services, method, params, ctx), caller);
  } else if (address.holder !== undefined && address.holder !== holder) {
    if (services.relay === undefined) throw unreachableHolder(services.upstreamName, address);
    outcome = await services.relay.resume(address.holder, address.call, method, caller);
    holder = address.holder;
  } else {
    outcome = await resumeRound(services, method, address.call, caller);
  }
  if (outcome.kind === 'done') return convert(outcome.result);
  const state: JsonObject = { [STATE_KEY]: outcome.call };
  if (holder !== undefined) state[HOLDER_KEY] = holder;
  return inputRequired(outcome.requests, state);
}

/**
 * Runs the next round of the suspended call `id` of this process for `caller`: its answers go to
 * the upstream's open questions, and the round waits for the upstream's next move. Rejects with a
 * precise error when the call is gone (expired, ended) or belongs to another principal.
 */
export async function resumeRound(
  services: RoundServices,
  method: string,
  id: string,
  caller: RoundCaller,
): Promise<RoundOutcome> {
  const taken = services.suspended.take(id, caller.principalId);
  if (taken === 'unknown') {
    // With a relay every state names its holder, so a call missing here was held here.
    const where = services.relay
      ? `it expired (after ${services.suspended.ttl} ms) or ended`
      : `it expired (after ${services.suspended.ttl} ms), ended, or was held by another gateway process`;
    throw new McpError(
      ErrorCode.InvalidParams,
      `The suspended call to upstream "${services.upstreamName}" is gone: ${where}; call again`,
    );
  }
  if (taken === 'other-owner') {
    throw new McpError(ErrorCode.InvalidParams, 'The suspended call belongs to another principal');
  }
  try {
    // The call gave its slot up while it waited; its upstream request resumes in a slot again.
    await taken.slot.take(caller.cancellation);
  } catch (error) {
    taken.abandon(error instanceof Error ? error.message : 'no slot for the call');
    throw error;
  }
  for (const [key, ask] of taken.outstanding) {
    const answer = caller.answers[key];
    if (answer === undefined) {
      ask.refuse(
        new McpError(ErrorCode.InvalidParams, `The client gave no answer to ${ask.method}`),
      );
    } else {
      ask.answer(answer);
    }
  }
  taken.outstanding.clear();
  return playRound(services, method, taken, caller);
}

/** The upstream call a state names; `undefined` for a first round. */
function callAddress(state: Json | undefined): CallAddress | undefined {
  if (!isPlainObject(state) || typeof state[STATE_KEY] !== 'string') return undefined;
  const holder = state[HOLDER_KEY];
  return { call: state[STATE_KEY], holder: typeof holder === 'string' ? holder : undefined };
}

/** The downstream request as a round's caller. */
function callerOf(ctx: HandlerContext): RoundCaller {
  const answers: Record<string, Record<string, unknown>> = {};
  for (const [key, response] of Object.entries(ctx.inputResponses)) {
    answers[key] = inputResponseToWire(response);
  }
  return {
    principalId: ctx.principal?.id,
    answers,
    cancellation: ctx.cancellation,
    progress: (update) => ctx.progress(update.progress, update.total, update.message),
    log: (params) => ctx.log(params.level, params.data as Json, params.logger),
  };
}

function unreachableHolder(upstream: string, address: CallAddress): McpError {
  return new McpError(
    ErrorCode.InvalidParams,
    `The suspended call to upstream "${upstream}" is held by gateway process ${address.holder}, which this process shares no state with; call again`,
  );
}

/** Waits for the upstream's next move in `call` and makes it the round's outcome. */
async function playRound(
  services: RoundServices,
  method: string,
  call: UpstreamCall,
  caller: RoundCaller,
): Promise<RoundOutcome> {
  services.active.set(call, caller);
  call.attach({ progress: (update) => caller.progress(update) });
  try {
    const event = await call.next(
      services.timeoutMs,
      caller.cancellation,
      () =>
        new McpError(
          ErrorCode.InternalError,
          `Upstream "${services.upstreamName}" did not answer ${method} within ${services.timeoutMs} ms`,
        ),
    );
    if (event.kind === 'done') return { kind: 'done', result: event.result };
    if (event.kind === 'failed') throw upstreamFailure(services.upstreamName, event.error);
    return suspend(services, call, event.asks, caller);
  } catch (error) {
    call.abandon(error instanceof Error ? error.message : 'the round failed');
    throw error;
  } finally {
    call.attach(undefined);
    services.active.delete(call);
  }
}

/** What a caller declared it can answer, as the upstream may ask it (never its extensions). */
function askableCapabilities(ctx: HandlerContext): Record<string, unknown> {
  const declared: Record<string, unknown> = {};
  for (const name of ['elicitation', 'sampling', 'roots']) {
    if (ctx.clientCapabilities[name] !== undefined) declared[name] = ctx.clientCapabilities[name];
  }
  return declared;
}

function startCall(
  services: RoundServices,
  method: string,
  params: Record<string, unknown>,
  ctx: HandlerContext,
): UpstreamCall {
  const capabilities = askableCapabilities(ctx);
  const share = callerKey(ctx);
  // A caller at its cap of suspended calls is refused before its call reaches the upstream.
  services.suspended.assertRoom(share);
  const slot = new GateSlot(services.gate);
  return new UpstreamCall(share, slot, capabilities).start(async (call) => {
    const lease = await services.lease(ctx);
    call.upstream = lease.client;
    try {
      await call.slot.take(call.controller);
      return await (services.send ?? sendRequest)(lease.client, method, params, {
        cancellation: call.controller,
        timeoutMs: 0,
        onProgress: (update) => call.progress(update),
        handlers: call.handlers,
        // A modern upstream sees what the caller can answer, so it asks only for that.
        capabilities,
      });
    } finally {
      call.slot.free();
      lease.release();
    }
  });
}

function suspend(
  services: RoundServices,
  call: UpstreamCall,
  asks: readonly PendingAsk[],
  caller: RoundCaller,
): RoundOutcome {
  const requests: InputRequest[] = [];
  for (const ask of asks) {
    let body;
    try {
      body = inputRequestFromWire(ask.method, ask.params);
    } catch (error) {
      ask.refuse(error as Error);
      continue;
    }
    const key = call.keyFor(ask);
    requests.push(inputRequest(key, body));
  }
  const id = services.suspended.hold(call, caller.principalId);
  // Waiting for its caller, the call holds no slot: others may use the upstream meanwhile.
  call.slot.free();
  return { kind: 'input', requests, call: id };
}

/**
 * An upstream failure as the wire error the downstream client gets: the upstream's own JSON-RPC
 * error as it is; the gateway's failure to reach it in one line without the process's stderr, its
 * URLs cut to host and path.
 */
export function upstreamFailure(upstream: string, error: unknown): McpError {
  if (isMcpError(error)) return error;
  if (error instanceof ServerExitedError) {
    return new McpError(ErrorCode.InternalError, `Upstream "${upstream}" exited during the call`, {
      upstream,
    });
  }
  const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
  const shown = redactForCaller(message);
  return new McpError(ErrorCode.InternalError, `Upstream "${upstream}" failed: ${shown}`, {
    upstream,
  });
}
