import { tracingChannel } from 'node:diagnostics_channel';

/**
 * The name of the `diagnostics_channel` tracing channel the bridge reports its worker calls on:
 * `tracing:rondo:prolog:call:start`, `:end`, `:asyncStart`, `:asyncEnd` and `:error`, each with
 * one {@link PrologCallMessage}. A tracer (such as `@rondo/otel`) subscribes with
 * `diagnostics_channel.tracingChannel(PROLOG_CALL_CHANNEL).subscribe(...)`; with nobody
 * subscribed the bridge publishes nothing and builds no message.
 */
export const PROLOG_CALL_CHANNEL = 'rondo:prolog:call';

/**
 * One call the bridge hands to a Prolog worker. `start` is published once a worker took the call
 * (time spent waiting for a free worker is not in it) and in the async context of the request
 * that made it; `asyncEnd` once the worker answered, with `result` (the worker's raw answer) or,
 * after an `error` event, with `error` set.
 */
export interface PrologCallMessage {
  /** The worker operation: `tool`, `prompt`, `resource` or `complete`. */
  readonly method: string;
  /** The tool or prompt name, or the resource URI, when the operation has one. */
  readonly target: string | undefined;
  /** The id of the worker that runs the call. */
  readonly workerId: number;
  /** The provider's name (`prolog:<module>` or `logtalk:<object>` by default). */
  readonly provider: string;
  /** Set by the channel when the call resolved. */
  result?: unknown;
  /** Set by the channel when the call failed (a `Prolog*Error`). */
  error?: unknown;
}

const channel = tracingChannel<unknown, PrologCallMessage>(PROLOG_CALL_CHANNEL);

/**
 * Runs one worker call, reporting it on {@link PROLOG_CALL_CHANNEL} when someone listens. The
 * message is built only then, so an untraced call costs one property read.
 */
export function reportedCall<T>(
  describe: () => PrologCallMessage,
  run: () => Promise<T>,
): Promise<T> {
  // `hasSubscribers` is missing before Node 20.13; there the call is always reported.
  if (channel.hasSubscribers === false) return run();
  return channel.tracePromise(run, describe());
}
