import {
  ErrorCode,
  McpError,
  assertInputRequired,
  inputRequestToWire,
  isPlainObject,
  type InputRequest,
  type InputRequestBody,
  type InputResponseValue,
  type Json,
  type RoundResult,
} from '@rondo/protocol';
import type { OpenedState, SealedStateBinding } from '@rondo/core';
import { elicitationValidator, missingCapabilities, readInputResponses } from './inputResponses.js';
import type { ModernRequest } from './request.js';
import type { WireResult } from './serverView.js';

/**
 * Multi round-trip requests (MRTR) on the modern wire. A hook that needs client input returns
 * `input_required`; the adapter answers `{resultType: "input_required", inputRequests, requestState}`
 * and the client retries with the answers. The requestState is always sealed (bound to the method,
 * the request's identity and the principal) and carries, besides the hook's own state, the
 * requests that were sent, so the retry's answers are read against them.
 */

/** What one method contributes to round driving; one static object per method, no per-call closures. */
export interface RoundMethod<R, I extends Json> {
  readonly method: 'tools/call' | 'prompts/get' | 'resources/read';
  /** Runs the hook for one round; the request carries the round's answers and opened state. */
  invoke(request: ModernRequest, identity: I): Promise<RoundResult<R>>;
  /** The wire form of a complete result; `retried` results must not be cached. */
  complete(result: R, identity: I, request: ModernRequest, retried: boolean): WireResult;
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

/** Drives one call of a multi-round request: open the previous round, read the answers, run the hook. */
export async function driveRound<R, I extends Json>(
  request: ModernRequest,
  method: RoundMethod<R, I>,
  identity: I,
): Promise<WireResult> {
  const params = request.params;
  const previous =
    params.requestState === undefined
      ? undefined
      : openPrevious(request, bindingOf(request, method, identity));
  const answers = readInputResponses(params.inputResponses, previous?.carry.sent);
  const retried = previous !== undefined || params.inputResponses !== undefined;
  request.round = previous === undefined ? 1 : previous.carry.round + 1;
  if (previous !== undefined) {
    const missing = Object.keys(previous.carry.sent).filter((key) => !Object.hasOwn(answers, key));
    const answered = { ...previous.carry.answered, ...answers };
    if (missing.length > 0) {
      // A missing answer is asked for again, with the answers already given kept in the state.
      const again = missing.map((key) => ({
        key,
        request: previous.carry.sent[key] as InputRequestBody,
      }));
      return askForInput(
        request,
        bindingOf(request, method, identity),
        again,
        previous.opened.state,
        answered,
      );
    }
    request.inputResponses = answered;
    request.requestState = previous.opened.state;
  } else {
    request.inputResponses = answers;
  }
  const outcome = await method.invoke(request, identity);
  if (outcome.kind === 'complete')
    return method.complete(outcome.result, identity, request, retried);
  assertInputRequired(outcome.requests, outcome.state);
  return askForInput(
    request,
    bindingOf(request, method, identity),
    outcome.requests,
    outcome.state,
    {},
  );
}

/** What a sealed state is bound to; built only when a state is opened or sealed. */
function bindingOf(
  request: ModernRequest,
  method: { method: string },
  identity: Json,
): SealedStateBinding {
  return { method: method.method, identity, principal: request.principal?.id };
}

function openPrevious(
  request: ModernRequest,
  binding: SealedStateBinding,
): { opened: OpenedState; carry: Carry } {
  const opened = request.server.sealer.open(request.params.requestState, binding);
  const carry = readCarry(opened.carry);
  if (carry === undefined)
    throw new McpError(ErrorCode.InvalidParams, 'Invalid or expired requestState');
  return { opened, carry };
}

/** Builds an `input_required` answer: checks the client can answer, seals the state, converts the requests. */
function askForInput(
  request: ModernRequest,
  binding: SealedStateBinding,
  requests: readonly Pick<InputRequest, 'key' | 'request'>[],
  state: Json | undefined,
  answered: Record<string, InputResponseValue>,
): WireResult {
  const limit = request.server.roundLimit;
  if (request.round >= limit) {
    throw new McpError(
      ErrorCode.InternalError,
      `The ${binding.method} request did not complete within the round limit (${limit} rounds)`,
      { roundLimit: limit },
    );
  }
  const required = missingCapabilities(requests, request.clientCapabilities);
  if (required !== undefined) {
    throw new McpError(
      ErrorCode.MissingClientCapability,
      `Missing required client capability: ${Object.keys(required).join(', ')}`,
      { requiredCapabilities: required },
    );
  }
  const sent: Record<string, InputRequestBody> = {};
  const wire: Record<string, unknown> = {};
  for (const { key, request: body } of requests) {
    // Compiled now so a malformed schema fails here, and the retry finds the validator ready.
    if (body.kind === 'form_elicitation') elicitationValidator(body.schema);
    sent[key] = body;
    wire[key] = modernInputRequest(body);
  }
  const carry = { round: request.round, sent, answered } as unknown as Json;
  const result: WireResult = { resultType: 'input_required' };
  if (requests.length > 0) result.inputRequests = wire;
  result.requestState = request.server.sealer.seal(binding, { state, carry });
  return result;
}

/** An input request as the 2026 wire has it: URL elicitations carry no elicitationId any more. */
function modernInputRequest(body: InputRequestBody): {
  method: string;
  params: Record<string, unknown>;
} {
  const wire = inputRequestToWire(body);
  if (body.kind === 'url_elicitation') delete wire.params.elicitationId;
  return wire;
}

function readCarry(value: Json): Carry | undefined {
  if (!isPlainObject(value)) return undefined;
  const { round, sent, answered } = value;
  if (typeof round !== 'number' || !isPlainObject(sent) || !isPlainObject(answered))
    return undefined;
  return value as unknown as Carry;
}
