import {
  ErrorCode,
  McpError,
  assertInputRequired,
  isPlainObject,
  type InputRequest,
  type InputRequestBody,
  type InputResponseValue,
  type Json,
} from '@rondo/protocol';
import { modernInputRequestToWire } from '@rondo/protocol/internal';
import type { RoundTakeover } from '@rondo/core';
import {
  assertClientCanAnswer,
  assertWithinRoundLimit,
  elicitationValidator,
  type RequestCall,
  type RoundOperation,
  type WireResult,
  roundTakeover,
  type OpenedState,
  type SealedStateBinding,
} from '@rondo/core/internal';
import { readInputResponses } from './inputResponses.js';
import type { ModernServerView } from './serverView.js';

/**
 * Multi round-trip requests (MRTR) on the modern wire. A hook that needs client input returns
 * `input_required`; the adapter answers `{resultType: "input_required", inputRequests, requestState}`
 * and the client retries with the answers. The requestState is always sealed (bound to the method,
 * the request's identity and the principal) and carries, besides the hook's own state, the
 * requests that were sent, so the retry's answers are read against them.
 */

/** The members of a round method's params that a retry carries. */
export interface RetryParams {
  inputResponses?: unknown;
  requestState?: string;
}

/** The adapter's bookkeeping inside a sealed state. */
interface Carry {
  /** The call of the request's chain that sent these requests (1 for the first call). */
  round: number;
  /** The requests sent and still unanswered, by key. */
  sent: Record<string, InputRequestBody>;
  /** Answers already given in an earlier retry of the same round, when some were missing. */
  answered: Record<string, InputResponseValue>;
}

interface Round {
  readonly call: RequestCall;
  readonly view: ModernServerView;
  readonly binding: SealedStateBinding;
}

/**
 * Drives one call of a multi-round request: open the previous round, read the answers, run the
 * hook. An extension may answer the call instead of the hook (`takeRound`: the Tasks extension
 * starts a task that runs the round, and any later ones, in the background, and answers its
 * handle).
 */
export async function driveRound<R, I extends Json>(
  call: RequestCall,
  params: RetryParams,
  view: ModernServerView,
  operation: RoundOperation<R, I>,
  identity: I,
): Promise<WireResult> {
  const round: Round = {
    call,
    view,
    binding: { method: operation.method, identity, principal: call.principal?.id },
  };
  const previous =
    params.requestState === undefined ? undefined : await openPrevious(round, params.requestState);
  const answers = readInputResponses(params.inputResponses, previous?.carry.sent);
  if (previous !== undefined) {
    call.round = previous.carry.round;
    const missing = Object.keys(previous.carry.sent).filter((key) => !Object.hasOwn(answers, key));
    const answered = { ...previous.carry.answered, ...answers };
    if (missing.length > 0) {
      // A missing answer is asked for again, with the answers already given kept in the state.
      const again = missing.map((key) => ({ key, request: previous.carry.sent[key]! }));
      call.round += 1;
      return await askForInput(round, again, previous.opened.state, answered);
    }
    call.enterRound(answered, previous.opened.state);
  } else {
    call.inputResponses = answers;
  }
  const taken = await takenByExtension(call, view, operation, identity, previous !== undefined);
  if (taken !== undefined) return taken;
  const outcome = await operation.invoke(view.runtime, call, identity);
  if (outcome === undefined) throw new McpError(ErrorCode.InternalError, 'No result');
  if (outcome.kind === 'complete') return operation.toWire(outcome.result);
  assertInputRequired(outcome.requests, outcome.state);
  return await askForInput(round, outcome.requests, outcome.state, {});
}

async function openPrevious(
  round: Round,
  sealed: string,
): Promise<{ opened: OpenedState; carry: Carry }> {
  const opened = await round.view.runtime.sealer.open(sealed, round.binding);
  const carry = readCarry(opened.carry);
  if (carry === undefined)
    throw new McpError(ErrorCode.InvalidParams, 'Invalid or expired requestState');
  return { opened, carry };
}

/** Builds an `input_required` answer: checks the client can answer, seals the state, converts the requests. */
async function askForInput(
  { call, view, binding }: Round,
  requests: readonly Pick<InputRequest, 'key' | 'request'>[],
  state: Json | undefined,
  answered: Record<string, InputResponseValue>,
): Promise<WireResult> {
  assertWithinRoundLimit(binding.method, call.round, view.runtime.roundLimit);
  assertClientCanAnswer(requests, call.clientCapabilities);
  const sent: Record<string, InputRequestBody> = {};
  const wire: Record<string, unknown> = {};
  for (const { key, request: body } of requests) {
    // Compiled now so a malformed schema fails here, and the retry finds the validator ready.
    if (body.kind === 'form_elicitation') elicitationValidator(body.schema);
    sent[key] = body;
    wire[key] = modernInputRequestToWire(body);
  }
  const carry = { round: call.round, sent, answered } as unknown as Json;
  const result: WireResult = { resultType: 'input_required' };
  if (requests.length > 0) result.inputRequests = wire;
  result.requestState = await view.runtime.sealer.seal(binding, { state, carry });
  return result;
}

/** The answer of the first extension that takes the call over, if one does. */
async function takenByExtension<R, I extends Json>(
  call: RequestCall,
  view: ModernServerView,
  operation: RoundOperation<R, I>,
  identity: I,
  retry: boolean,
): Promise<WireResult | undefined> {
  const runtime = view.runtime;
  let round: RoundTakeover | undefined;
  for (const extension of runtime.extensions) {
    if (extension.takeRound === undefined) continue;
    round ??= roundTakeover(call, runtime, operation, identity, retry);
    const answer = await extension.takeRound(round);
    if (answer !== undefined) return answer;
  }
  return undefined;
}

function readCarry(value: Json): Carry | undefined {
  if (!isPlainObject(value)) return undefined;
  const { round, sent, answered } = value;
  if (typeof round !== 'number' || !isPlainObject(sent) || !isPlainObject(answered))
    return undefined;
  return value as unknown as Carry;
}
