import type { Json } from '@rondo/protocol';
import type { RoundTakeover } from '../contracts/extension.js';
import type { ServerRuntime } from '../runtime.js';
import type { RequestCall } from './call.js';
import type { RoundOperation } from './operations.js';

/**
 * A round an extension may take over, as the pipeline holds it: the request's own call, the
 * runtime and the round operation, which the public {@link RoundTakeover} leaves out (an extension
 * sees the call's context and the host). Core's Tasks extension reads them to run the round as a
 * task, until the seam carries a hook for running a round later.
 */
export interface TakenRound {
  readonly call: RequestCall;
  readonly runtime: ServerRuntime;
  readonly operation: RoundOperation<unknown, Json>;
  readonly identity: Json;
}

const takenRounds = new WeakMap<RoundTakeover, TakenRound>();

/** The {@link RoundTakeover} an era offers its server's extensions for one call of a round method. */
export function roundTakeover<R, I extends Json>(
  call: RequestCall,
  runtime: ServerRuntime,
  operation: RoundOperation<R, I>,
  identity: I,
  retry: boolean,
): RoundTakeover {
  const round: RoundTakeover = { call, host: runtime, method: operation.method, identity, retry };
  takenRounds.set(round, { call, runtime, operation, identity });
  return round;
}

/** The pipeline's side of a round made by {@link roundTakeover}; a `TypeError` for any other. */
export function takenRoundOf(round: RoundTakeover): TakenRound {
  const taken = takenRounds.get(round);
  if (taken === undefined) throw new TypeError('not a round offered by an era (roundTakeover)');
  return taken;
}
