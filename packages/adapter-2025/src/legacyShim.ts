import {
  assertClientCanAnswer,
  assertWithinRoundLimit,
  type RequestCall,
  type RoundOperation,
} from '@rondo/core/internal';
import type { InputRequest, InputResponseValue, Json, RoundResult } from '@rondo/protocol';
import { askClient } from './handlerContext.js';
import type { SessionState } from './sessionState.js';

/**
 * The legacy shim: a legacy client cannot receive an `input_required` result, so each round's input
 * requests go out as real server-to-client requests (`elicitation/create`, `sampling/createMessage`,
 * `roots/list`), one at a time in order so a user sees one form at a time; the answers, keyed like
 * the requests and checked by the core as on the modern wire, and the round's state are handed to
 * the hook for its next round, until it completes. The provider's code is the same in both eras.
 *
 * Before a round's requests are sent, every one is checked against the client's capabilities, so a
 * round the client cannot serve fails whole (a `MissingClientCapabilityError`). A hook still asking
 * for input at the server's round limit fails with a `RoundLimitError`.
 */
export async function driveRounds<R, I extends Json>(
  state: SessionState,
  call: RequestCall,
  operation: RoundOperation<R, I>,
  identity: I,
  first: RoundResult<R> | undefined,
): Promise<RoundResult<R> | undefined> {
  let outcome = first;
  while (outcome?.kind === 'input_required') {
    assertWithinRoundLimit(operation.method, call.round, state.runtime.roundLimit);
    const answers = await answerAll(state, call, outcome.requests);
    call.enterRound(answers, outcome.state);
    outcome = await operation.invoke(state.runtime, call, identity);
  }
  return outcome;
}

async function answerAll(
  state: SessionState,
  call: RequestCall,
  requests: readonly InputRequest[],
): Promise<Record<string, InputResponseValue>> {
  assertClientCanAnswer(requests, state.session.clientCapabilities);
  const answers: Record<string, InputResponseValue> = {};
  for (const request of requests) {
    call.signal.throwIfAborted();
    answers[request.key] = await askClient(state, call, request.request, request.key);
  }
  return answers;
}
