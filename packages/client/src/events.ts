import type { LoggingMessageNotificationParams } from '@rondo/protocol';

/** What the client reports, by event name. */
export interface ClientEvents {
  /** The server's tool list changed. */
  toolsListChanged: undefined;
  /** The server's prompt list changed. */
  promptsListChanged: undefined;
  /** The server's resource list changed. */
  resourcesListChanged: undefined;
  /** A subscribed resource changed. */
  resourceUpdated: { uri: string };
  /** A log message from the server. */
  log: LoggingMessageNotificationParams;
  /** Any other notification from the server. */
  notification: { method: string; params: Record<string, unknown> | undefined };
  /** Something the server sent was refused (too large, malformed, an answer to no request). */
  violation: Error;
  /** The connection ended; with the reason when it was not closed by the client. */
  closed: Error | undefined;
}

/** An event's name. */
export type ClientEventName = keyof ClientEvents;

/** A small typed event emitter: listeners by event name; a throwing listener never stops the client. */
export class ClientEventHub {
  private readonly listeners = new Map<ClientEventName, Set<(value: never) => void>>();

  /** Adds a listener; returns the function that removes it. */
  on<E extends ClientEventName>(event: E, listener: (value: ClientEvents[E]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Calls every listener of `event`. */
  emit<E extends ClientEventName>(event: E, value: ClientEvents[E]): void {
    for (const listener of this.listeners.get(event) ?? []) {
      try {
        (listener as (value: ClientEvents[E]) => void)(value);
      } catch {
        // A listener's failure is the listener's; the client keeps serving.
      }
    }
  }

  /** True when `event` has listeners. */
  has(event: ClientEventName): boolean {
    return (this.listeners.get(event)?.size ?? 0) > 0;
  }

  /**
   * The events of one name as an async iterator, buffered up to `limit` (older ones are dropped
   * beyond it); ends when `signal` aborts.
   */
  async *iterate<E extends ClientEventName>(
    event: E,
    signal?: AbortSignal,
    limit = 1000,
  ): AsyncGenerator<ClientEvents[E]> {
    // Boxed, since several events carry no value.
    const queue: { value: ClientEvents[E] }[] = [];
    let wake: (() => void) | undefined;
    const off = this.on(event, (value) => {
      if (queue.length >= limit) queue.shift();
      queue.push({ value });
      wake?.();
    });
    const onAbort = (): void => wake?.();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      while (!signal?.aborted) {
        const next = queue.shift();
        if (next !== undefined) {
          yield next.value;
          continue;
        }
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
    } finally {
      off();
      signal?.removeEventListener('abort', onAbort);
    }
  }
}
