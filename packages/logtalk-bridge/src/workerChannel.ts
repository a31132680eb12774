import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import type { JsonObject } from '@rondo/protocol';
import { prologTerm } from './prologTerm.js';

/**
 * Node's side of a worker's protocol channel. Messages written in one turn of the event loop
 * leave in one write: with several calls in flight per worker, each write is a system call that
 * wakes the worker, and under load those wake-ups cost more than the calls themselves.
 */
export class WorkerChannel {
  private pending = '';
  private scheduled = false;

  constructor(
    private readonly stream: Writable,
    private readonly open: () => boolean,
  ) {}

  /**
   * Queues one message, a term ended by a full stop (the worker reads it with `read_term/3`
   * straight from the pipe); it is written at the end of this turn of the event loop.
   */
  write(message: JsonObject): void {
    this.pending += `${prologTerm(message)}.\n`;
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  /** Writes what is queued now (before a signal that must find it there, say). */
  flush(): void {
    this.scheduled = false;
    const text = this.pending;
    this.pending = '';
    if (text !== '' && this.open()) this.stream.write(text);
  }

  /** Ends the stream after what is queued. */
  end(): void {
    this.flush();
    this.stream.end();
  }
}

/**
 * The calls a worker should interrupt, in a file the worker reads when it gets SIGINT. A signal
 * carries no data, and with several calls in flight the one running when the signal lands may
 * not be the one cancelled: the worker interrupts the running call only when the file names it,
 * and skips a named call it has not started yet. The file is replaced in one rename, and written
 * before the signal is sent, so the worker never reads half of it.
 */
export class InterruptList {
  /** The file's path, sent to the worker in its `init` message. */
  readonly path: string;

  constructor(workerId: number) {
    this.path = join(tmpdir(), `rondo-interrupts-${process.pid}-${workerId}`);
  }

  /** Makes `ids` the calls to interrupt. */
  write(ids: readonly number[]): void {
    const next = `${this.path}.next`;
    writeFileSync(next, `[${ids.join(',')}].\n`);
    renameSync(next, this.path);
  }

  /** Removes the file (the worker is gone). */
  remove(): void {
    rmSync(this.path, { force: true });
    rmSync(`${this.path}.next`, { force: true });
  }
}
