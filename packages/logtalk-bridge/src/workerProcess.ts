import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { swiplNotFound } from './launch.js';
import type { WorkerLaunch } from './workerContract.js';
import { forwardOutput } from './workerOutput.js';

/** What a worker hears from its process: how it ended, and a start that needs the user's fix. */
export interface WorkerProcessEvents {
  /** The process is gone or never started; `how` completes "Prolog worker N …". Called at most once per cause. */
  ended(how: string): void;
  /** The executable does not exist: a configuration mistake, told in one line. */
  notInstalled(error: Error): void;
}

/**
 * The `swipl` child of one worker: its life (spawn, signals, exit), kept apart from the table of
 * calls it runs. The protocol runs on fd 3; stdout and stderr are forwarded to the log, and the
 * last stderr lines are kept to explain an early death.
 */
export class WorkerProcess {
  private readonly child: ChildProcess;
  /** The protocol channel (fd 3). */
  readonly channel: Readable & Writable;
  /** The last lines the process wrote on stderr or stdout. */
  readonly outputTail: string[] = [];
  private exited = false;

  constructor(id: number, launch: WorkerLaunch, events: WorkerProcessEvents) {
    this.child = spawn(launch.command, launch.args, {
      env: launch.environment(id),
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    this.channel = this.child.stdio[3] as unknown as Readable & Writable;
    forwardOutput(this.child.stderr!, 'stderr', id, launch, this.outputTail);
    forwardOutput(this.child.stdout!, 'stdout', id, launch, this.outputTail);
    this.child.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') events.notInstalled(swiplNotFound(launch.command));
      events.ended(`could not start ${launch.command}: ${error.message}`);
    });
    this.child.on('exit', (code, signal) => {
      this.exited = true;
      events.ended(signal ? `killed by ${signal}` : `exited with code ${code}`);
    });
  }

  /** Sends `signal` unless the process is gone already. */
  signal(signal: NodeJS.Signals): void {
    if (!this.exited) this.child.kill(signal);
  }

  /** Sends SIGTERM, then SIGKILL if the process is still there after `graceMs`. */
  async stop(graceMs: number): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await gone;
    clearTimeout(timer);
  }
}
