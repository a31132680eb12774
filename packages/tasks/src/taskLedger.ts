/** What one owner holds in a store: the ids of its tasks still running, and the bytes of its values. */
interface OwnerShare {
  readonly running: Set<string>;
  bytes: number;
}

/**
 * The in-memory store's account of who holds what: per share (a principal, or an anonymous
 * client the transport tells apart), the tasks not yet finished and the bytes of stored values,
 * and the bytes in total. It decides
 * nothing; the store asks it before it keeps more.
 */
export class TaskLedger {
  private readonly owners = new Map<string, OwnerShare>();
  private bytes = 0;

  /** Bytes of stored values across every owner. */
  get totalBytes(): number {
    return this.bytes;
  }

  /** The ids of `owner`'s tasks that are not finished (expired ones included until forgotten). */
  running(owner: string | undefined): ReadonlySet<string> {
    return this.owners.get(owner ?? '')?.running ?? new Set();
  }

  /** Bytes of `owner`'s stored values. */
  bytesOf(owner: string | undefined): number {
    return this.owners.get(owner ?? '')?.bytes ?? 0;
  }

  /** A new task of `owner`, running. */
  started(owner: string | undefined, taskId: string): void {
    this.shareOf(owner).running.add(taskId);
  }

  /** `owner`'s task finished (completed, failed, cancelled): it no longer counts as running. */
  finished(owner: string | undefined, taskId: string): void {
    this.owners.get(owner ?? '')?.running.delete(taskId);
  }

  /** `owner`'s values grew (or shrank) by `delta` bytes. */
  resized(owner: string | undefined, delta: number): void {
    this.shareOf(owner).bytes += delta;
    this.bytes += delta;
    this.dropIfEmpty(owner);
  }

  /** A task is gone from the store, with the `bytes` its values held. */
  forgot(owner: string | undefined, taskId: string, bytes: number): void {
    this.finished(owner, taskId);
    this.resized(owner, -bytes);
  }

  /** Forgets everything. */
  clear(): void {
    this.owners.clear();
    this.bytes = 0;
  }

  private shareOf(owner: string | undefined): OwnerShare {
    const key = owner ?? '';
    let share = this.owners.get(key);
    if (share === undefined) this.owners.set(key, (share = { running: new Set(), bytes: 0 }));
    return share;
  }

  private dropIfEmpty(owner: string | undefined): void {
    const key = owner ?? '';
    const share = this.owners.get(key);
    if (share !== undefined && share.running.size === 0 && share.bytes <= 0)
      this.owners.delete(key);
  }
}
