import type { Json } from '@rondo/protocol';
import { PrologCancelledError } from './errors.js';
import type { WorkerMessage } from './messages.js';
import type { CallHandlers, ClientQuestion } from './workerContract.js';

/**
 * How long a worker's running call may have run and still have calls written behind it: past
 * this it may be a long one (a slow tool, a task), and the next call is better off in the pool's
 * queue. Short calls (under a millisecond, typically) run back to back with no round trip.
 */
export const PIPELINE_BEHIND_MS = 20;

/** A call written to a worker and not answered yet. */
export interface InFlight {
  id: number;
  resolve(value: Json): void;
  reject(error: Error): void;
  handlers: CallHandlers;
  timeoutMs: number;
  timer?: NodeJS.Timeout;
  detach(): void;
  /** The caller gave up: the worker may finish within the grace period, and nobody listens. */
  abandoned: boolean;
  /** The client question the worker is waiting on, if any. */
  asking?: ClientQuestion;
}

/**
 * The question a worker's message asks the client on behalf of its call (elicitation, sampling,
 * roots), with how to ask it through the call's handlers; undefined for any other message.
 */
export function clientQuestion(
  handlers: CallHandlers,
  message: WorkerMessage,
): { what: ClientQuestion; ask: () => Promise<Json> } | undefined {
  const cannot = () => Promise.reject(new Error('this call cannot ask the client'));
  switch (message.type) {
    case 'elicit':
      return {
        what: 'elicitation',
        ask: async () =>
          handlers.elicit
            ? ((await handlers.elicit(message.message, message.schema)) as unknown as Json)
            : { kind: 'cancel' },
      };
    case 'sampling':
      return {
        what: 'sampling',
        ask: () => (handlers.sample ? handlers.sample(message.request) : cannot()),
      };
    case 'roots':
      return { what: 'roots', ask: () => (handlers.roots ? handlers.roots() : cannot()) };
    case 'result':
    case 'failure':
    case 'progress':
    case 'log':
    case 'close_stream':
    case 'ready':
    case 'load_error':
    case 'changed':
    case 'broadcast':
    case 'emit':
      return undefined;
  }
}

/** Passes on what a running call reports while it goes on: progress, a log line, a closed stream. */
export function deliverNews(handlers: CallHandlers, message: WorkerMessage): void {
  if (message.type === 'progress')
    handlers.progress?.(message.progress, message.total, message.message);
  else if (message.type === 'log') handlers.log?.(message.level, message.data, message.logger);
  else if (message.type === 'close_stream') handlers.closeStream?.();
}

/** The failure of a call whose caller gave up. */
export function cancelledCall(workerId: number): PrologCancelledError {
  return new PrologCancelledError(workerId, 'the call was cancelled');
}
