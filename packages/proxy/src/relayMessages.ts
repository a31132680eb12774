import {
  isPlainObject,
  type InputRequest,
  type JsonRpcErrorObject,
  type JsonRpcMessage,
  type LoggingMessageNotificationParams,
} from '@rondo/protocol';
import { LoggingMessageNotificationParamsSchema } from '@rondo/protocol/internal';
import type { RoundOutcome } from './roundRunner.js';

/**
 * The messages proxies of different processes exchange over a `SessionRelay` to run a round of a
 * suspended call where it is held. They travel as JSON-RPC messages under a session id naming the
 * process they are for ({@link relayAddress}), which no transport session can have, so the
 * transports serving real sessions on the same relay ignore them.
 *
 * - `rondo/proxy/round` (request, to the holder): run the next round of `call` with `answers`.
 * - `rondo/proxy/accepted` (to the asker): the holder is alive and runs the round.
 * - `rondo/proxy/progress`, `rondo/proxy/log` (to the asker): the upstream's progress and log.
 * - `rondo/proxy/cancel` (to the holder): the asker's client went away.
 * - the response to the round's id (to the asker): the {@link RoundOutcome}, or an error.
 */
export const ROUND = 'rondo/proxy/round';
export const ACCEPTED = 'rondo/proxy/accepted';
export const PROGRESS = 'rondo/proxy/progress';
export const LOG = 'rondo/proxy/log';
export const CANCEL = 'rondo/proxy/cancel';

/** The relay session id of the messages for the proxy whose relay id is `id`. */
export function relayAddress(id: string): string {
  return `rondo-proxy-rounds:${id}`;
}

/** A round another process asks this one to run. */
export interface RoundRequest {
  readonly round: string;
  /** The asking proxy's relay id, where the answer goes. */
  readonly from: string;
  readonly upstream: string;
  /** The downstream method (`tools/call`, ...), for error messages. */
  readonly method: string;
  readonly call: string;
  readonly principal: string | undefined;
  readonly answers: Record<string, Record<string, unknown>>;
}

/** The round request as a JSON-RPC request. */
export function roundRequestMessage(request: RoundRequest): JsonRpcMessage {
  const { round, principal, ...rest } = request;
  return {
    jsonrpc: '2.0',
    id: round,
    method: ROUND,
    params: { ...rest, principal: principal ?? null },
  };
}

/** The round request a relayed request carries; `undefined` when it is malformed. */
export function readRoundRequest(id: unknown, params: unknown): RoundRequest | undefined {
  if (typeof id !== 'string' || !isPlainObject(params)) return undefined;
  const { from, upstream, method, call, principal, answers } = params;
  if (typeof from !== 'string' || typeof upstream !== 'string') return undefined;
  if (typeof method !== 'string' || typeof call !== 'string') return undefined;
  if (principal !== null && typeof principal !== 'string') return undefined;
  if (!isPlainObject(answers) || !Object.values(answers).every(isPlainObject)) return undefined;
  return {
    round: id,
    from,
    upstream,
    method,
    call,
    principal: principal ?? undefined,
    answers: answers as Record<string, Record<string, unknown>>,
  };
}

/** A notification about round `round`. */
export function roundNotice(
  method: string,
  round: string,
  params: Record<string, unknown> = {},
): JsonRpcMessage {
  return { jsonrpc: '2.0', method, params: { ...params, round } };
}

/** The outcome a holder's reply carries; `undefined` when it is malformed. */
export function readOutcome(result: unknown): RoundOutcome | undefined {
  if (!isPlainObject(result)) return undefined;
  if (result.kind === 'done') {
    return isPlainObject(result.result) ? { kind: 'done', result: result.result } : undefined;
  }
  if (result.kind !== 'input' || typeof result.call !== 'string') return undefined;
  const requests = result.requests;
  if (!Array.isArray(requests) || !requests.every(isInputRequest)) return undefined;
  return { kind: 'input', requests, call: result.call };
}

function isInputRequest(value: unknown): value is InputRequest {
  return (
    isPlainObject(value) &&
    value.kind === 'input_request' &&
    typeof value.key === 'string' &&
    isPlainObject(value.request) &&
    typeof value.request.kind === 'string'
  );
}

/** The error object a holder's error reply carries; `undefined` when it is malformed. */
export function readError(error: unknown): JsonRpcErrorObject | undefined {
  if (!isPlainObject(error)) return undefined;
  if (typeof error.code !== 'number' || typeof error.message !== 'string') return undefined;
  return error.data === undefined
    ? { code: error.code, message: error.message }
    : { code: error.code, message: error.message, data: error.data };
}

/** The progress a relayed progress notice carries; `undefined` when it is malformed. */
export function readProgress(
  params: Record<string, unknown>,
): { progress: number; total?: number; message?: string } | undefined {
  if (typeof params.progress !== 'number') return undefined;
  return {
    progress: params.progress,
    ...(typeof params.total === 'number' ? { total: params.total } : {}),
    ...(typeof params.message === 'string' ? { message: params.message } : {}),
  };
}

/** The log message a relayed log notice carries; `undefined` when it is malformed. */
export function readLog(
  params: Record<string, unknown>,
): LoggingMessageNotificationParams | undefined {
  const { round: _round, ...log } = params;
  const parsed = LoggingMessageNotificationParamsSchema.safeParse(log);
  return parsed.success && 'data' in log ? parsed.data : undefined;
}
