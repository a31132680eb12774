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

/**
 * The round an era offers, with the pipeline's side in private fields: a `WeakMap` from offered
 * rounds to their pipeline side cost every call an ephemeron entry, which V8's collector traces at
 * a price the conformance fixture's calls showed (its GC time tripled).
 */
class OfferedRound implements RoundTakeover {
  readonly #call: RequestCall;
  readonly #runtime: ServerRuntime;
  readonly #operation: RoundOperation<unknown, Json>;

  constructor(
    call: RequestCall,
    runtime: ServerRuntime,
    operation: RoundOperation<unknown, Json>,
    readonly identity: Json,
    readonly retry: boolean,
  ) {
    this.#call = call;
    this.#runtime = runtime;
    this.#operation = operation;
  }

  get call(): RequestCall {
    return this.#call;
  }

  get host(): ServerRuntime {
    return this.#runtime;
  }

  get method(): string {
    return this.#operation.method;
  }

  static takenOf(round: RoundTakeover): TakenRound | undefined {
    if (!(#call in round)) return undefined;
    return {
      call: round.#call,
      runtime: round.#runtime,
      operation: round.#operation,
      identity: round.identity,
    };
  }
}

/** The {@link RoundTakeover} an era offers its server's extensions for one call of a round method. */
export function roundTakeover<R, I extends Json>(
  call: RequestCall,
  runtime: ServerRuntime,
  operation: RoundOperation<R, I>,
  identity: I,
  retry: boolean,
): RoundTakeover {
  return new OfferedRound(call, runtime, operation, identity, retry);
}

/** The pipeline's side of a round made by {@link roundTakeover}; a `TypeError` for any other. */
export function takenRoundOf(round: RoundTakeover): TakenRound {
  const taken = OfferedRound.takenOf(round);
  if (taken === undefined) throw new TypeError('not a round offered by an era (roundTakeover)');
  return taken;
}
