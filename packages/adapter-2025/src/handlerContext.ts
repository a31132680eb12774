import { ClientRequestError, LOG_LEVELS, type HandlerContext, type LogLevel } from '@rondo/core';
import {
  InputResponseError,
  formElicitation,
  inputResponseFromWire,
  roots,
  type InputRequestBody,
  type InputResponseValue,
  type Json,
  type RequestId,
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
export function handlerContext(
  state: SessionState,
  call: LegacyCall,
  principal: HandlerContext['principal'],
): HandlerContext {
  const { revision, clientCapabilities, clientInfo } = state.session;
  const progressToken = progressTokenOf(call.params);
  let lastProgress = -Infinity;
  return {
    era: 'legacy',
    revision,
    clientCapabilities,
    ...(clientInfo ? { clientInfo } : {}),
    inputResponses: {},
    requestState: undefined,
    round: 1,
    signal: call.signal,
    principal,
    progress(value, total, message) {
      // Progress must increase, and only active requests report it.
      if (progressToken === undefined || call.done || !(value > lastProgress)) return;
      lastProgress = value;
      const params: Record<string, Json> = { progressToken, progress: value };
      if (total !== undefined) params.total = total;
      if (message !== undefined) params.message = message;
      call.send({ jsonrpc: '2.0', method: 'notifications/progress', params });
    },
    log(level, data, logger) {
      if (!shouldLog(state.logLevel, level)) return;
      const params: Record<string, Json> = { level, data };
      if (logger !== undefined) params.logger = logger;
      call.send({ jsonrpc: '2.0', method: 'notifications/message', params });
    },
    elicit: (message, schema) => askClient(state, call, formElicitation(message, schema)),
    async sample(request) {
      const answer = await askClient(state, call, { kind: 'sampling', ...request });
      if (answer.kind !== 'sampling_result')
        throw new ClientRequestError('The client answered sampling with another kind of result');
      return answer;
    },
    async listRoots() {
      const answer = await askClient(state, call, roots());
      if (answer.kind !== 'roots_result')
        throw new ClientRequestError('The client answered roots/list with another kind of result');
      return answer.roots;
    },
  };
}

/** The context of the next round: the answers and state of this one, and the round number plus one. */
export function nextRoundContext(
  ctx: HandlerContext,
  inputResponses: Record<string, InputResponseValue>,
  requestState: Json | undefined,
): HandlerContext {
  return { ...ctx, inputResponses, requestState, round: ctx.round + 1 };
}

/** True when a message at `level` passes the session's threshold. */
export function shouldLog(threshold: LogLevel | 'off', level: LogLevel): boolean {
  return threshold !== 'off' && LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}

function progressTokenOf(params: Record<string, unknown>): RequestId | undefined {
  const meta = params._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const token = (meta as Record<string, unknown>).progressToken;
  return typeof token === 'string' || (typeof token === 'number' && Number.isSafeInteger(token))
    ? token
    : undefined;
}
