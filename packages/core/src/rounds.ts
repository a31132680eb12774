import type { RoundResult } from '@rondo/protocol';

/** A handler's outcome as a round result: a plain value means `complete(value)`. */
export function normaliseRound<R extends { kind: string }>(
  outcome: R | RoundResult<R>,
): RoundResult<R> {
  if (outcome.kind === 'complete' || outcome.kind === 'input_required')
    return outcome as RoundResult<R>;
  return { kind: 'complete', result: outcome as R };
}
