import { ClientRequestError } from '@rondo/core';

/**
 * Local failures of the legacy era. They become a tool's error result (`isError`) or, for prompts
 * and resources, a JSON-RPC error; see `failureToWire` in `methods.ts`.
 */

/** The client did not declare the capability a server-to-client request needs. */
export class MissingClientCapabilityError extends ClientRequestError {
  constructor(
    readonly capability: string,
    detail: string,
  ) {
    super(
      `${detail} needs the client capability "${capability}", which the client did not declare at initialize`,
    );
  }
}

/** A round hook still asked for input when the server's round limit was reached. */
export class RoundLimitError extends Error {
  override readonly name = 'RoundLimitError';
}
