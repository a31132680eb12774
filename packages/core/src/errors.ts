import { RondoError } from '@rondo/protocol';
import type { JsonObject } from '@rondo/protocol';

/** Local failures of the core. They are mapped to wire errors in one place (`toWireError`). */

/** The server was configured wrongly (a duplicate tool name, a bad schema). Thrown at build time. */
export class ConfigurationError extends RondoError {
  override readonly code: string = 'core.configuration';
  override readonly name: string = 'ConfigurationError';
}

/** A server-to-client request was not answered in time, or was refused by the client. */
export class ClientRequestError extends RondoError {
  override readonly code: string = 'core.client-request';
  override readonly name: string = 'ClientRequestError';
}

/** The client did not declare the capabilities an input request needs. */
export class MissingClientCapabilityError extends ClientRequestError {
  override readonly code: string = 'core.missing-client-capability';
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
export class RoundLimitError extends RondoError {
  override readonly code: string = 'core.round-limit';
  override readonly name = 'RoundLimitError';
  constructor(
    readonly method: string,
    readonly limit: number,
  ) {
    super(`The ${method} request did not complete within the round limit (${limit} rounds)`);
  }
}

/**
 * A store refused to keep more because one of its limits was reached (a task store's share of one
 * client, say). The wire error is -32603 naming the limit: `data: { limit, [limit]: value }`. An
 * extension's store refuses with a subclass of its own (`TaskLimitError` of `@rondo/tasks`).
 */
export class StoreLimitError extends RondoError {
  override readonly code: string = 'core.store-limit';
  override readonly name: string = 'StoreLimitError';
  constructor(
    /** The option that bounds the store (`maxTasksPerOwner`, say). */
    readonly limit: string,
    /** Its value. */
    readonly value: number,
    message: string,
  ) {
    super(`${message} (limit ${limit}: ${value})`);
  }
}

/**
 * The state the processes of an endpoint share (a Redis server) could not be reached or answered
 * wrongly. A request that needs it fails with -32603 naming the store; what needs no shared state
 * goes on being served, and the store's client reconnects by itself.
 */
export class SharedStateError extends RondoError {
  override readonly code: string = 'core.shared-state';
  override readonly name = 'SharedStateError';
}

/**
 * Why a bearer token was refused. Each is a 401 `invalid_token`, except `verifier_unavailable`:
 * the token was not judged at all (the key set or the introspection endpoint could not be read),
 * which the HTTP transport answers 503 so the client keeps its token and retries.
 */
export type TokenRejectionReason =
  | 'malformed'
  | 'expired'
  | 'not_yet_valid'
  | 'wrong_issuer'
  | 'wrong_audience'
  | 'unknown_key'
  | 'algorithm_not_allowed'
  | 'invalid_signature'
  | 'invalid_claims'
  | 'inactive'
  | 'invalid_dpop_proof'
  | 'verifier_unavailable';

/**
 * A token verifier's refusal with a reason a client may read. `description` goes into the
 * `error_description` of the `WWW-Authenticate` challenge, so it never holds the token; it is kept
 * to the characters RFC 6750 allows there.
 */
export class TokenRejectedError extends RondoError {
  override readonly code: string = 'core.token-rejected';
  override readonly name = 'TokenRejectedError';
  /** The description as sent: printable ASCII without `"` or `\`. */
  readonly description: string;
  /** For `verifier_unavailable`: when to ask again, in seconds (the 503's `Retry-After`). */
  readonly retryAfterSeconds: number | undefined;
  constructor(
    /** A stable code for logs and tests. */
    readonly reason: TokenRejectionReason,
    description: string,
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    const safe = description.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, ' ').slice(0, 200);
    super(safe, options);
    this.description = safe;
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }
}
