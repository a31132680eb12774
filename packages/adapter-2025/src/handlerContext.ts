import { ClientRequestError, LOG_LEVELS, type HandlerContext, type LogLevel } from '@rondo/core';
import {
  InputResponseError,
  formElicitation,
  inputResponseFromWire,
  isPlainObject,
  isValidId,
  roots,
  type InputRequestBody,
  type InputResponseValue,
  type Json,
  type JsonObject,
  type RequestId,
  type SamplingRequest,
  type SamplingResponse,
} from '@rondo/protocol';
import type { LegacyCall } from './call.js';
import { assertClientCan, inputRequestForRevision } from './inputRequests.js';
import type { SessionState } from './sessionState.js';

/**
 * Sends one input request to the client as a real server-to-client request on the call's channel
 * and reads the answer. Refuses (before sending) what the client did not declare at initialize.
 */
export async function askClient(
  state: SessionState,
  call: LegacyCall,
  body: InputRequestBody,
): Promise<InputResponseValue> {
  const { revision, clientCapabilities } = state.session;
  assertClientCan(body, clientCapabilities);
  const wire = inputRequestForRevision(body, revision);
  const result = await state.clientRequests.request(wire, call);
  try {
    return inputResponseFromWire(body, result);
  } catch (failure) {
    if (failure instanceof InputResponseError) {
      throw new ClientRequestError(
        `The client answered ${wire.method} with a malformed result: ${failure.message}`,
      );
    }
    throw failure;
  }
}

/** The context a handler gets for a legacy request, first round. */
export function handlerContext(state: SessionState, call: LegacyCall): HandlerContext {
  return new LegacyHandlerContext(state, call, progressTokenOf(call.params));
}

/**
 * A legacy handler's context. A class rather than an object of closures: one allocation per call,
 * and the signal is read from the call only when the handler asks for it.
 */
class LegacyHandlerContext implements HandlerContext {
  readonly era = 'legacy';
  readonly revision: HandlerContext['revision'];
  readonly clientCapabilities: HandlerContext['clientCapabilities'];
  // Declared, not defined: like the wire, the context has no clientInfo member when the client sent none.
  declare readonly clientInfo?: { name: string; version: string };
  inputResponses: Readonly<Record<string, InputResponseValue>> = {};
  requestState: Json | undefined = undefined;
  round = 1;

  constructor(
    private readonly state: SessionState,
    private readonly call: LegacyCall,
    private readonly progressToken: RequestId | undefined,
  ) {
    const { revision, clientCapabilities, clientInfo } = state.session;
    this.revision = revision;
    this.clientCapabilities = clientCapabilities;
    if (clientInfo) Object.assign(this, { clientInfo });
  }

  get signal(): AbortSignal {
    return this.call.signal;
  }

  /** The principal the transport authenticated for the call. */
  get principal(): HandlerContext['principal'] {
    return this.call.principal;
  }

  /** The context of the next round: this round's answers and state, and the round number plus one. */
  nextRound(
    inputResponses: Record<string, InputResponseValue>,
    requestState: Json | undefined,
  ): LegacyHandlerContext {
    const next = new LegacyHandlerContext(this.state, this.call, this.progressToken);
    next.inputResponses = inputResponses;
    next.requestState = requestState;
    next.round = this.round + 1;
    return next;
  }

  progress(value: number, total?: number, message?: string): void {
    // Progress must increase over the whole call (every round), and only active requests report it.
    const token = this.progressToken;
    if (token === undefined || this.call.done || !(value > this.call.lastProgress)) return;
    this.call.lastProgress = value;
    const params: Record<string, Json> = { progressToken: token, progress: value };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    this.call.send({ jsonrpc: '2.0', method: 'notifications/progress', params });
  }

  log(level: LogLevel, data: Json, logger?: string): void {
    if (!shouldLog(this.state.logLevel, level)) return;
    const params: Record<string, Json> = { level, data };
    if (logger !== undefined) params.logger = logger;
    this.call.send({ jsonrpc: '2.0', method: 'notifications/message', params });
  }

  elicit(message: string, schema: JsonObject): Promise<InputResponseValue> {
    return askClient(this.state, this.call, formElicitation(message, schema));
  }

  async sample(request: Omit<SamplingRequest, 'kind'>): Promise<SamplingResponse> {
    const answer = await askClient(this.state, this.call, { kind: 'sampling', ...request });
    if (answer.kind !== 'sampling_result')
      throw new ClientRequestError('The client answered sampling with another kind of result');
    return answer;
  }

  async listRoots(): Promise<{ uri: string; name?: string }[]> {
    const answer = await askClient(this.state, this.call, roots());
    if (answer.kind !== 'roots_result')
      throw new ClientRequestError('The client answered roots/list with another kind of result');
    return answer.roots;
  }
}

/** The context of the next round: the answers and state of this one, and the round number plus one. */
export function nextRoundContext(
  ctx: HandlerContext,
  inputResponses: Record<string, InputResponseValue>,
  requestState: Json | undefined,
): HandlerContext {
  if (ctx instanceof LegacyHandlerContext) return ctx.nextRound(inputResponses, requestState);
  return { ...ctx, inputResponses, requestState, round: ctx.round + 1 };
}

/** True when a message at `level` passes the session's threshold. */
export function shouldLog(threshold: LogLevel | 'off', level: LogLevel): boolean {
  return threshold !== 'off' && LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}

function progressTokenOf(params: Record<string, unknown>): RequestId | undefined {
  const meta = params._meta;
  const token = isPlainObject(meta) ? meta.progressToken : undefined;
  return isValidId(token) ? token : undefined;
}
