import { RondoError } from '@rondo/protocol';
import { McpError } from '@rondo/protocol';
/**
 * Local failures of the Prolog bridge. None of them crosses the wire as is: the core maps them to
 * a wire error in one place (an internal error, or an `isError` tool result naming the failure).
 */

/** The bridge was configured wrongly (a `.lgt` file without `LOGTALKHOME`, no files). */
export class PrologConfigurationError extends RondoError {
  override readonly code: string = 'bridge.configuration';
  override readonly name = 'PrologConfigurationError';
}

/**
 * A user file failed to load; start-up stops with the file, line (and for a syntax error the
 * column) and the Prolog message: `file:line:column: detail` is its one-line message.
 */
export class PrologLoadError extends RondoError {
  override readonly code: string = 'bridge.load';
  override readonly name = 'PrologLoadError';
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly detail: string,
    readonly column?: number,
  ) {
    const at = line === undefined ? '' : `:${line}${column === undefined ? '' : `:${column}`}`;
    super(`${file}${at}: ${detail}`);
  }
}

/** One thing wrong with a loaded provider: where (when known) and what. */
export interface ProviderProblem {
  file?: string;
  line?: number;
  /** What was found and the expected shape: `tools/1 lists foo, ...; expected tool(...)`. */
  message: string;
}

/**
 * The files loaded, but the provider is not fit to serve: a descriptor names a predicate that
 * is not there, a mode names an unknown type, a descriptor has the wrong shape, a schema is not
 * JSON Schema. `lines` has one `file:line: message` per problem (the message is all of them).
 */
export class PrologProviderError extends RondoError {
  override readonly code: string = 'bridge.provider';
  override readonly name = 'PrologProviderError';
  /** One `file:line: what was found; expected <shape>` per problem. */
  readonly lines: readonly string[];
  constructor(
    readonly problems: readonly ProviderProblem[],
    /** The file a problem without a known place is reported at. */
    fallbackFile: string,
  ) {
    const lines = problems.map((p) => problemLine(p, fallbackFile));
    super(lines.join('\n'));
    this.lines = lines;
  }
}

/** `file:line: message` for a problem (`file: message` when its line is unknown). */
export function problemLine(problem: ProviderProblem, fallbackFile: string): string {
  const line = problem.line === undefined ? '' : `:${problem.line}`;
  return `${problem.file ?? fallbackFile}${line}: ${problem.message}`;
}

/** A worker died during a call, or could not be started. Only its own call fails. */
export class PrologWorkerError extends RondoError {
  override readonly code: string = 'bridge.worker';
  override readonly name: string = 'PrologWorkerError';
  constructor(
    readonly workerId: number,
    message: string,
  ) {
    super(message);
  }
}

/** A worker wrote something that is not the bridge protocol on the protocol channel. */
export class PrologProtocolError extends PrologWorkerError {
  override readonly code: string = 'bridge.protocol';
  override readonly name = 'PrologProtocolError';
}

/** A call ran past its deadline; its worker was killed and replaced. */
export class PrologTimeoutError extends PrologWorkerError {
  override readonly code: string = 'bridge.timeout';
  override readonly name = 'PrologTimeoutError';
}

/**
 * Every worker was busy and `maxQueue` calls already waited for one: the call was refused at once
 * rather than queued without end.
 */
export class PrologBusyError extends RondoError {
  override readonly code: string = 'bridge.busy';
  override readonly name = 'PrologBusyError';
  constructor(readonly maxQueue: number) {
    super(
      `the Prolog provider is busy: the queue of calls waiting for a worker is full (limit maxQueue: ${maxQueue}); try again later`,
    );
  }
}

/**
 * The caller gave up (its signal aborted). The worker may finish the call within the grace period
 * (`cancelGraceMs`) and serve on; only a worker still busy after it is killed and replaced.
 */
export class PrologCancelledError extends PrologWorkerError {
  override readonly code: string = 'bridge.cancelled';
  override readonly name = 'PrologCancelledError';
}

/**
 * The provider answered with a failure: a prompt or resource hook failed or returned `error(E)`,
 * a hook raised an exception, or a result term was not in the vocabulary.
 */
export class PrologCallError extends RondoError {
  override readonly code: string = 'bridge.call';
  override readonly name = 'PrologCallError';
  constructor(
    /** `failed`, `exception`, `invalid_result`, `unknown` or `unknown_method` (a method the worker does not serve). */
    readonly kind: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * No worker is running and the last attempt to start one failed (a file that no longer loads, a
 * worker dying while it starts): calls fail at once rather than wait, until a restart, retried
 * with exponential back-off, succeeds.
 */
export class PrologUnavailableError extends PrologWorkerError {
  override readonly code: string = 'bridge.unavailable';
  override readonly name = 'PrologUnavailableError';
  constructor(
    /** Why the last start failed. */
    readonly reason: string,
    /** When the next start is tried, in milliseconds from when the error was made. */
    readonly retryInMs: number,
  ) {
    super(
      0,
      `no Prolog worker is running: the last start failed (${reason}); the next try is in ${retryInMs} ms`,
    );
  }
}

/** A failed call as an error: a JSON-RPC error the goal threw keeps its code. */
export function callFailure(failure: { kind: string; message: string; code?: number }): Error {
  if (failure.kind === 'mcp_error' && failure.code !== undefined)
    return new McpError(failure.code, failure.message);
  return new PrologCallError(failure.kind, failure.message);
}
