import { RondoError } from '@rondo/protocol';
import { McpError } from '@rondo/protocol';

export { McpError };

/**
 * Local failures of the client, one class each, so a caller can tell a server that said no (an
 * {@link McpError} carrying the server's code and data) from a connection that broke.
 */
export abstract class ClientError extends RondoError {}

/** The transport could not deliver a message or lost its connection (a socket closed, an HTTP failure). */
export class TransportError extends ClientError {
  override readonly code: string = 'client.transport';
  override readonly name: string = 'TransportError';
  constructor(
    message: string,
    /** The HTTP status, when an HTTP answer caused the failure. */
    readonly status?: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** An HTTP request was refused with 401 or 403 and the authorizer gave up (or there was none). */
export class HttpAuthError extends TransportError {
  override readonly code: string = 'client.http-auth';
  override readonly name: string = 'HttpAuthError';
}

/** A request got no answer within its deadline; the client sent a cancellation. */
export class RequestTimeoutError extends ClientError {
  override readonly code: string = 'client.request-timeout';
  override readonly name = 'RequestTimeoutError';
  constructor(
    readonly method: string,
    readonly timeoutMs: number,
  ) {
    super(`${method}: no answer within ${timeoutMs} ms`);
  }
}

/** The caller aborted a request through its `AbortSignal`; the client sent a cancellation. */
export class RequestAbortedError extends ClientError {
  override readonly code: string = 'client.request-aborted';
  override readonly name = 'RequestAbortedError';
  constructor(
    readonly method: string,
    readonly reason?: unknown,
  ) {
    super(`${method}: aborted`);
  }
}

/** The server process ended (or closed its output) while requests were open. */
export class ServerExitedError extends ClientError {
  override readonly code: string = 'client.server-exited';
  override readonly name = 'ServerExitedError';
  constructor(
    message: string,
    /** The exit code, when the process exited. */
    readonly exitCode: number | null,
    /** The signal that ended the process, if any. */
    readonly signal: string | null,
    /** The tail of what the server wrote to stderr (bounded). */
    readonly stderr: string,
  ) {
    super(message);
  }
}

/**
 * The server broke the protocol: a frame too large or too deeply nested, a message that is not
 * JSON-RPC, a result that does not fit its method's schema, an answer to an id never sent.
 */
export class ProtocolViolationError extends ClientError {
  override readonly code: string = 'client.protocol-violation';
  override readonly name = 'ProtocolViolationError';
}

/** The client's table of open requests is full: the caller sends faster than the server answers. */
export class TooManyPendingRequestsError extends ClientError {
  override readonly code: string = 'client.too-many-pending-requests';
  override readonly name = 'TooManyPendingRequestsError';
  constructor(readonly limit: number) {
    super(`too many open requests (limit maxPendingRequests = ${limit})`);
  }
}

/** The client was used before `connect()` or after `close()`. */
export class ClientStateError extends ClientError {
  override readonly code: string = 'client.state';
  override readonly name = 'ClientStateError';
}

/** The server asked for input more times than the round limit allows (MRTR). */
export class InputRoundsExceededError extends ClientError {
  override readonly code: string = 'client.input-rounds-exceeded';
  override readonly name = 'InputRoundsExceededError';
  constructor(
    readonly method: string,
    readonly limit: number,
  ) {
    super(`${method}: the server asked for input more than ${limit} times (limit maxInputRounds)`);
  }
}

/** Why a skill's content was refused (the Skills extension's verification failures, and the client's limits). */
export type SkillFailure =
  'invalid-entry' | 'too-large' | 'unlisted' | 'missing' | 'size' | 'digest' | 'frontmatter';

/**
 * A skill's content did not match the entry the client holds (size, digest, frontmatter), a read
 * asked for a file the entry does not list, or the entry itself cannot be loaded. The content is
 * never handed to the caller.
 */
export class SkillVerificationError extends ClientError {
  override readonly code: string = 'client.skill-verification';
  override readonly name = 'SkillVerificationError';
  constructor(
    /** The URI of the skill file (or the skill) that failed. */
    readonly uri: string,
    readonly failure: SkillFailure,
    message: string,
  ) {
    super(message);
  }
}

/** The server did not declare what a method needs (an extension, or one of its settings), so the client did not send it. */
export class NotDeclaredByServerError extends ClientError {
  override readonly code: string = 'client.not-declared-by-server';
  override readonly name = 'NotDeclaredByServerError';
  constructor(
    readonly method: string,
    /** What the server would have to declare. */
    readonly declaration: string,
  ) {
    super(`${method}: the server does not declare ${declaration}`);
  }
}
