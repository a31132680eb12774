import type { HandlerContext } from '@rondo/core';
import type { InputRequest, InputResponseValue, RoundResult } from '@rondo/protocol';
import type { LegacyCall } from './call.js';
import { RoundLimitError } from './errors.js';
import { askClient, nextRoundContext } from './handlerContext.js';
import { assertClientCan } from './inputRequests.js';
import type { SessionState } from './sessionState.js';

/** Calls a round hook once more with the context of the next round. */
export type RoundHook<R> = (ctx: HandlerContext) => Promise<RoundResult<R>>;

/**
 * The legacy shim: a legacy client cannot receive an `input_required` result, so each round's input
 * requests go out as real server-to-client requests (`elicitation/create`, `sampling/createMessage`,
 * `roots/list`), one at a time in order so a user sees one form at a time; the answers, keyed like
 * the requests, and the round's state are handed to the hook for its next round, until it completes.
 * The provider's code is the same in both eras.
 *
 * Before a round's requests are sent, every one is checked against the client's capabilities, so a
 * round the client cannot serve fails whole (a {@link MissingClientCapabilityError}). A hook still
 * asking for input at the server's round limit fails with a {@link RoundLimitError}.
 */
export async function driveRounds<R>(
  state: SessionState,
  call: LegacyCall,
  first: RoundResult<R>,
  ctx: HandlerContext,
  hook: RoundHook<R>,
): Promise<R> {
  let outcome = first;
  let context = ctx;
  while (outcome.kind === 'input_required') {
    if (context.round >= state.server.roundLimit) {
      throw new RoundLimitError(
        `The request still needed client input after ${state.server.roundLimit} rounds (the server's round limit)`,
      );
    }
    const answers = await answerAll(state, call, outcome.requests);
    context = nextRoundContext(context, answers, outcome.state);
    outcome = await hook(context);
  }
  return outcome.result;
}

async function answerAll(
  state: SessionState,
  call: LegacyCall,
  requests: readonly InputRequest[],
): Promise<Record<string, InputResponseValue>> {
  const { clientCapabilities } = state.session;
  for (const request of requests) assertClientCan(request.request, clientCapabilities);
  const answers: Record<string, InputResponseValue> = {};
  for (const request of requests) {
    call.signal.throwIfAborted();
    answers[request.key] = await askClient(state, call, request.request);
  }
  return answers;
}
