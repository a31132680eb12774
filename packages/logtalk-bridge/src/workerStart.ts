import type { JsonObject } from '@rondo/protocol';
import { PrologWorkerError } from './errors.js';
import type { WorkerMessage } from './messages.js';
import type { WorkerLaunch } from './workerContract.js';
import { loadError } from './workerOutput.js';

/** The worker's answer to its `init`: it loaded the user's files, or could not. */
type StartAnswer = Extract<WorkerMessage, { type: 'ready' | 'load_error' }>;

/**
 * The start of one worker: `init` written, then its `ready` (or the load error of the user's
 * files) awaited within the launch's start timeout. Whatever ends the worker meanwhile (it
 * exited, wrote garbage, `swipl` is missing) fails the start instead.
 */
export class WorkerStart {
  private pending: { resolve(): void; reject(error: Error): void } | undefined;

  constructor(
    private readonly id: number,
    private readonly launch: WorkerLaunch,
  ) {}

  /** True while the worker has not answered its `init`. */
  get waiting(): boolean {
    return this.pending !== undefined;
  }

  /**
   * Writes `init` (what the launch says, plus the interrupt list's path and the answer batch) and
   * resolves once the worker is ready; `timedOut` runs (the worker is killed) when it takes longer
   * than the start timeout.
   */
  begin(
    write: (message: JsonObject) => void,
    extra: JsonObject,
    timedOut: () => void,
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        timedOut();
        this.fail(
          new PrologWorkerError(
            this.id,
            `Prolog worker ${this.id} did not start within ${this.launch.startTimeoutMs} ms`,
          ),
        );
      }, this.launch.startTimeoutMs);
      this.pending = {
        resolve: () => (clearTimeout(timer), resolve()),
        reject: (error) => (clearTimeout(timer), reject(error)),
      };
      write({ op: 'init', ...this.launch.init(this.id), ...extra });
    });
  }

  /** Takes the worker's answer to `init` (the caller checked {@link waiting}). */
  answered(message: StartAnswer): void {
    const pending = this.pending;
    this.pending = undefined;
    if (message.type === 'ready') pending?.resolve();
    else pending?.reject(loadError(message));
  }

  /** Fails the start with `error`, if it is still waited for. */
  fail(error: Error): void {
    const pending = this.pending;
    this.pending = undefined;
    pending?.reject(error);
  }
}
