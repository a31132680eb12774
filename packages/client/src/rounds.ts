import { isPlainObject, type Era } from '@rondo/protocol';
import { InputRequiredResultSchema } from '@rondo/protocol/internal';
import { InputRoundsExceededError, ProtocolViolationError } from './errors.js';
import { answerInput, type ClientHandlers } from './handlers.js';

/** One request that may be answered with `input_required` (MRTR). */
export interface RoundTrip {
  readonly method: string;
  readonly params: Record<string, unknown>;
  /** Sends the request once (a new id each time) and resolves with its checked result. */
  send(params: Record<string, unknown>): Promise<Record<string, unknown>>;
  readonly handlers: ClientHandlers;
  readonly maxRounds: number;
  readonly signal?: AbortSignal | undefined;
}

/**
 * Runs a modern request to completion: while the server answers `input_required`, the client
 * answers every input request with its handlers and sends the request again with the same params,
 * the answers as `inputResponses` and the `requestState` exactly as received.
 */
export async function runRounds(trip: RoundTrip): Promise<Record<string, unknown>> {
  let result = await trip.send(trip.params);
  for (let round = 1; result.resultType === 'input_required'; round += 1) {
    if (round > trip.maxRounds) throw new InputRoundsExceededError(trip.method, trip.maxRounds);
    const parsed = InputRequiredResultSchema.safeParse(result);
    if (!parsed.success) {
      throw new ProtocolViolationError(
        `the server's ${trip.method} input_required result is malformed`,
      );
    }
    const retry: Record<string, unknown> = { ...trip.params };
    const requests = isPlainObject(result.inputRequests) ? result.inputRequests : {};
    if (Object.keys(requests).length > 0) retry.inputResponses = await answerAll(trip, requests);
    // Echoed as received: the server sealed it and checks it byte for byte.
    if (typeof result.requestState === 'string') retry.requestState = result.requestState;
    result = await trip.send(retry);
  }
  return result;
}

async function answerAll(
  trip: RoundTrip,
  requests: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const era: Era = 'modern';
  const entries = await Promise.all(
    Object.entries(requests).map(async ([key, request]) => {
      const { method, params } = request as { method: string; params?: unknown };
      const answer = await answerInput(trip.handlers, method, params, {
        era,
        signal: trip.signal,
        key,
      });
      return [key, answer] as const;
    }),
  );
  return Object.fromEntries(entries);
}
