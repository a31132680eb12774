import type { JsonRpcMessage } from '@rondo/protocol';
import type { ProviderChange } from '../contracts/provider.js';
import type { ChangeBus, PublishedChange } from './changeBus.js';
import type { SessionRelay } from '../contracts/sessionRelay.js';

/**
 * The default {@link ChangeBus}: one process's. A change published is heard at once, inside
 * `publish`, by every subscriber, so a change reaches this process's clients before whatever the
 * code that made it does next (the answer of the call that registered a tool, say). It queues
 * nothing: its memory is its subscribers.
 */
export class MemoryChangeBus implements ChangeBus {
  private readonly listeners = new Set<(published: PublishedChange) => void>();
  private published = 0;

  /** Delivers the change to every subscriber before it returns; a listener that throws throws here. */
  publish(change: ProviderChange): Promise<void> {
    const published: PublishedChange = { id: `change-${(this.published += 1)}`, change };
    for (const listener of [...this.listeners]) listener(published);
    return Promise.resolve();
  }

  subscribe(listener: (published: PublishedChange) => void): () => void {
    // A wrapper per call, so the same function subscribed twice hears each change twice, as on Redis.
    const own = (published: PublishedChange): void => listener(published);
    this.listeners.add(own);
    return () => this.listeners.delete(own);
  }
}

/**
 * The default {@link SessionRelay}: the relays of the "processes" one memory holds. Alone (the
 * default of a transport without shared state) there is no other process, so a forwarded message
 * reaches nobody; {@link MemorySessionRelay.peer} makes another process's relay on the same memory
 * (two transports of one server, a test of a cluster in one process). A message is delivered in a
 * later microtask, as one sent over a network, to the listeners of every relay but the sender's.
 */
export class MemorySessionRelay implements SessionRelay {
  private readonly listeners = new Set<(sessionId: string, message: JsonRpcMessage) => void>();

  constructor(private readonly members: Set<MemorySessionRelay> = new Set()) {
    members.add(this);
  }

  /** The relay of another process on the same memory: each hears what the other forwards. */
  peer(): MemorySessionRelay {
    return new MemorySessionRelay(this.members);
  }

  async forward(sessionId: string, message: JsonRpcMessage): Promise<void> {
    await Promise.resolve();
    for (const member of this.members) {
      if (member === this) continue;
      for (const listener of [...member.listeners]) listener(sessionId, message);
    }
  }

  receive(listener: (sessionId: string, message: JsonRpcMessage) => void): () => void {
    const own = (sessionId: string, message: JsonRpcMessage): void => listener(sessionId, message);
    this.listeners.add(own);
    return () => this.listeners.delete(own);
  }

  /** Leaves the memory: this relay hears nothing more, and the others no longer reach it. */
  close(): void {
    this.listeners.clear();
    this.members.delete(this);
  }
}
