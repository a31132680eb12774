import type { JsonObject } from '@rondo/protocol';

/** Local failures of the core. They are mapped to wire errors in one place (`toWireError`). */

/** The server was configured wrongly (a duplicate tool name, a bad schema). Thrown at build time. */
export class ConfigurationError extends Error {
  override readonly name: string = 'ConfigurationError';
}

/** A server-to-client request was not answered in time, or was refused by the client. */
export class ClientRequestError extends Error {
  override readonly name: string = 'ClientRequestError';
}

/** The client did not declare the capabilities an input request needs. */
export class MissingClientCapabilityError extends ClientRequestError {
  override readonly name = 'MissingClientCapabilityError';
  constructor(
    /** The missing capabilities, as a -32021 error's `requiredCapabilities` has them. */
    readonly required: JsonObject,
    /** The first missing capability as a dotted path (`elicitation.url`). */
    readonly capability: string,
  ) {
    super(
      `Missing required client capability: the request needs the client capability "${capability}", which the client did not declare`,
    );
  }
}

/** A round hook still asked for input when the server's round limit was reached. */
export class RoundLimitError extends Error {
  override readonly name = 'RoundLimitError';
  constructor(
    readonly method: string,
    readonly limit: number,
  ) {
    super(`The ${method} request did not complete within the round limit (${limit} rounds)`);
  }
}

/**
 * The state the processes of an endpoint share (a Redis server) could not be reached or answered
 * wrongly. A request that needs it fails with -32603 naming the store; what needs no shared state
 * goes on being served, and the store's client reconnects by itself.
 */
export class SharedStateError extends Error {
  override readonly name = 'SharedStateError';
}
