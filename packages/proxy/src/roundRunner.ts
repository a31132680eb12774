import { ServerExitedError, type CallOptions, type Client } from '@rondo/client';
import type { HandlerContext } from '@rondo/core';
import {
  ErrorCode,
  McpError,
  inputRequest,
  inputRequired,
  isMcpError,
  isPlainObject,
  type InputRequest,
  type RoundResult,
} from '@rondo/protocol';
import type { Gate } from './gate.js';
import type { SuspendedCalls } from './suspendedCalls.js';
import { UpstreamCall, type PendingAsk } from './upstreamCall.js';
import { inputRequestFromWire, inputResponseToWire } from './wireResults.js';

/** The member of a round's state that names the suspended upstream call. */
const STATE_KEY = 'upstreamCall';

/** What a round needs from its provider. */
export interface RoundServices {
  readonly upstreamName: string;
  /** The connection that serves a caller of this era. */
  client(era: HandlerContext['era']): Promise<Client>;
  readonly gate: Gate;
  readonly suspended: SuspendedCalls;
  /** Deadline for the upstream's next move (an answer or a question), ms; 0 for none. */
  readonly timeoutMs: number;
  /** The calls serving a downstream round now, with their context (log messages go to them). */
  readonly active: Map<UpstreamCall, HandlerContext>;
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
 * pending requests and the next round waits for the upstream's next move. Both eras take this
 * path: the legacy shim turns the questions into server-to-client requests.
 */
export async function runRound<R>(
  services: RoundServices,
  method: string,
  params: Record<string, unknown>,
  ctx: HandlerContext,
  convert: (result: Record<string, unknown>) => R,
): Promise<R | RoundResult<R>> {
  const call = resumedCall(services, ctx) ?? startCall(services, method, params, ctx);
  services.active.set(call, ctx);
  call.attach({ progress: (u) => ctx.progress(u.progress, u.total, u.message) });
  try {
    const event = await call.next(
      services.timeoutMs,
      ctx.signal,
      () =>
        new McpError(
          ErrorCode.InternalError,
          `Upstream "${services.upstreamName}" did not answer ${method} within ${services.timeoutMs} ms`,
        ),
    );
    if (event.kind === 'done') return convert(event.result);
    if (event.kind === 'failed') throw upstreamFailure(services.upstreamName, event.error);
    return suspend(services, call, event.asks, ctx);
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
  return new UpstreamCall().start(async (call) => {
    const client = await services.client(ctx.era);
    await services.gate.acquire(call.controller.signal);
    try {
      return await (services.send ?? sendRequest)(client, method, params, {
        signal: call.controller.signal,
        timeoutMs: 0,
        onProgress: (update) => call.progress(update),
        handlers: call.handlers,
        // A modern upstream sees what the caller can answer, so it asks only for that.
        capabilities,
      });
    } finally {
      services.gate.release();
    }
  });
}

/** The call a retry resumes, after handing the retry's answers to the upstream's questions. */
function resumedCall(services: RoundServices, ctx: HandlerContext): UpstreamCall | undefined {
  const state = ctx.requestState;
  if (!isPlainObject(state) || typeof state[STATE_KEY] !== 'string') return undefined;
  const taken = services.suspended.take(state[STATE_KEY], ctx.principal?.id);
  if (taken === 'unknown') {
    throw new McpError(
      ErrorCode.InvalidParams,
      `The suspended call to upstream "${services.upstreamName}" is gone: it expired (after ${services.suspended.ttl} ms), ended, or was held by another gateway process; call again`,
    );
  }
  if (taken === 'other-owner') {
    throw new McpError(ErrorCode.InvalidParams, 'The suspended call belongs to another principal');
  }
  for (const [key, ask] of taken.outstanding) {
    const answer = ctx.inputResponses[key];
    if (answer === undefined) {
      ask.refuse(
        new McpError(ErrorCode.InvalidParams, `The client gave no answer to ${ask.method}`),
      );
    } else {
      ask.answer(inputResponseToWire(answer));
    }
  }
  taken.outstanding.clear();
  return taken;
}

function suspend<R>(
  services: RoundServices,
  call: UpstreamCall,
  asks: readonly PendingAsk[],
  ctx: HandlerContext,
): RoundResult<R> {
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
  const id = services.suspended.hold(call, ctx.principal?.id);
  if (id === undefined) {
    throw new McpError(
      ErrorCode.InternalError,
      'The gateway holds too many calls waiting for their clients; try again later',
    );
  }
  return inputRequired(requests, { [STATE_KEY]: id });
}

/** An upstream failure as the wire error the downstream client gets. */
export function upstreamFailure(upstream: string, error: unknown): McpError {
  if (isMcpError(error)) return error;
  if (error instanceof ServerExitedError) {
    return new McpError(ErrorCode.InternalError, `Upstream "${upstream}" exited during the call`, {
      upstream,
    });
  }
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return new McpError(ErrorCode.InternalError, `Upstream "${upstream}" failed: ${message}`, {
    upstream,
  });
}
