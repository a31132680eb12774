import type { BroadcastLog } from './workerContract.js';

/**
 * One worker's place in its pool's {@link BroadcastLog}: the goals it broadcast go into the log,
 * and before each of its calls it runs the goals the others broadcast since it last looked, so a
 * replacement worker catches up too.
 */
export class BroadcastReplay {
  /** How many goals of the log this worker has seen. */
  private seen = 0;

  constructor(
    private readonly workerId: number,
    private readonly log: BroadcastLog,
  ) {}

  /** Records a goal this worker ran with `mcp_broadcast/1`. */
  record(goal: string): void {
    this.log.goals.push({ origin: this.workerId, goal });
  }

  /** Writes a `replay` of each goal another worker broadcast since the last call. */
  catchUp(write: (message: { op: 'replay'; goal: string }) => void): void {
    const { goals } = this.log;
    for (; this.seen < goals.length; this.seen++) {
      const { origin, goal } = goals[this.seen]!;
      if (origin !== this.workerId) write({ op: 'replay', goal });
    }
  }
}
