import type { ProviderChange } from './contracts/provider.js';
import type { ServerLogMessage } from './serverTypes.js';
import type { ChangeBus, PublishedChange } from './shared/changeBus.js';
import { MemoryChangeBus } from './shared/memoryChannels.js';

/** Hears a server's changes; `changeId` is the same in every process that hears the change. */
export type ChangeListener = (change: ProviderChange, changeId: string) => void;

/** Hears the messages a server sends to all its clients (`RondoServer.broadcastLog`). */
export type LogListener = (message: ServerLogMessage) => void;

/**
 * Where a server's changes go: through its change bus, which every process serving the endpoint
 * hears (this one too), so a change made in one reaches the clients of all. Without shared state
 * the bus is this process's ({@link MemoryChangeBus}), which delivers before `emit` returns.
 */
export class ServerChanges {
  private readonly listeners = new Set<ChangeListener>();
  private readonly logListeners = new Set<LogListener>();
  private stopBus: (() => void) | undefined;
  private readonly bus: ChangeBus;

  constructor(
    /** The shared state's bus; this process's own when undefined. */
    bus: ChangeBus | undefined,
    private readonly log: (level: 'warning', message: string) => void,
  ) {
    this.bus = bus ?? new MemoryChangeBus();
  }

  /** Tells everyone a change this process's providers made. */
  emit(change: ProviderChange): void {
    this.bus.publish(change).catch((failure: unknown) => {
      const reason = failure instanceof Error ? failure.message : String(failure);
      this.log(
        'warning',
        `a ${change.kind} change was not published to the other processes: ${reason}`,
      );
    });
  }

  /**
   * Tells this process's log listeners a server-wide message. Not published on the bus: it is about
   * this process (a reload of its own workers, say), and each replica reports its own.
   */
  broadcast(message: ServerLogMessage): void {
    for (const listener of this.logListeners) listener(message);
  }

  /** Listens to {@link ServerChanges.broadcast}; the returned function stops. */
  addLog(listener: LogListener): () => void {
    this.logListeners.add(listener);
    return () => this.logListeners.delete(listener);
  }

  /** Listens; the returned function stops. */
  add(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    this.stopBus ??= this.bus.subscribe((published) => this.deliver(published));
    return () => this.listeners.delete(listener);
  }

  /** Stops hearing the bus (the server closes). */
  close(): void {
    this.stopBus?.();
    this.stopBus = undefined;
  }

  private deliver(published: PublishedChange): void {
    for (const listener of this.listeners) listener(published.change, published.id);
  }
}
