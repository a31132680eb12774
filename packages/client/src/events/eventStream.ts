import { McpError, isPlainObject, type RequestId } from '@rondo/protocol';
import type { ClientCore } from '../client.js';
import { ClientStateError } from '../errors.js';
import {
  EVENTS_EXTENSION,
  SUBSCRIPTION_ID_META,
  checkOccurrence,
  type EventOccurrence,
  type EventSubscription,
} from './eventWire.js';

/** How a push stream behaves when its request ends early. */
export interface EventStreamOptions {
  /** Ends the stream (as `close()` does). */
  readonly signal?: AbortSignal;
  /** Reopenings in a row that may fail before the stream gives up with the last error (default 5). */
  readonly maxReconnects?: number;
  /** The wait before the first reopening, doubled for each failed one (default 500 ms). */
  readonly reconnectDelayMs?: number;
  /** Occurrences held for a slow reader; past it the request is closed until they are read (default 1,000). */
  readonly maxBuffered?: number;
}

type Waiter = {
  resolve: (result: IteratorResult<EventOccurrence>) => void;
  reject: (error: Error) => void;
};

/**
 * An `events/stream` subscription as an async iterator of occurrences. It holds the newest cursor
 * (each occurrence's, each heartbeat's) and, when the request ends early (a dropped connection, a
 * server that shut down with `terminated`), opens it again from that cursor, so nothing is lost or
 * repeated while the server's replay buffer reaches back that far (`truncated` says when it did
 * not). A server's refusal (an unknown type, bad arguments or cursor) ends the iteration with it.
 */
export class EventStream implements AsyncIterable<EventOccurrence> {
  /** The newest cursor: where a new subscription would resume. */
  cursor: string | null;
  /** True once the server said occurrences after a cursor were lost. */
  truncated = false;
  /**
   * Settles once the subscription is open: resolves when the server first says `active` (then
   * {@link cursor} is where it starts), rejects with the server's refusal or the error the stream
   * gave up with, or a `ClientStateError` when it was closed before it opened.
   */
  readonly opened: Promise<void>;
  private markOpened: (() => void) | undefined;
  private failOpened: ((error: Error) => void) | undefined;
  private readonly queue: EventOccurrence[] = [];
  private readonly waiters: Waiter[] = [];
  private failure: Error | undefined;
  private closed = false;
  private current: AbortController | undefined;
  private drained: (() => void) | undefined;
  private readonly finished: Promise<void>;

  constructor(
    private readonly core: ClientCore,
    private readonly subscription: EventSubscription,
    private readonly options: EventStreamOptions = {},
  ) {
    this.cursor = subscription.cursor ?? null;
    this.opened = new Promise<void>((resolve, reject) => {
      this.markOpened = resolve;
      this.failOpened = reject;
    });
    // A reader that never awaits `opened` meets the failure in its iteration instead.
    this.opened.catch(() => undefined);
    if (options.signal?.aborted) this.closed = true;
    options.signal?.addEventListener('abort', () => void this.close(), { once: true });
    this.finished = this.run();
  }

  /** Ends the subscription: the request is cancelled and the iteration ends. */
  async close(): Promise<void> {
    this.closed = true;
    this.current?.abort();
    this.drained?.();
    await this.finished;
  }

  [Symbol.asyncIterator](): AsyncIterator<EventOccurrence> {
    return {
      next: () => this.next(),
      return: async () => {
        await this.close();
        return { done: true, value: undefined };
      },
    };
  }

  private next(): Promise<IteratorResult<EventOccurrence>> {
    const value = this.queue.shift();
    if (value !== undefined) {
      if (this.queue.length <= this.maxBuffered / 2) this.drained?.();
      return Promise.resolve({ done: false, value });
    }
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.closed) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  private get maxBuffered(): number {
    return this.options.maxBuffered ?? 1000;
  }

  /** Opens the request, again from the newest cursor each time it ends, until closed or refused. */
  private async run(): Promise<void> {
    let failures = 0;
    const maxReconnects = this.options.maxReconnects ?? 5;
    while (!this.closed) {
      const opened = await this.once();
      if (this.closed) break;
      if (opened.refused !== undefined) {
        this.fail(opened.refused);
        break;
      }
      failures = opened.active ? 0 : failures + 1;
      if (failures > maxReconnects) {
        this.fail(opened.error ?? new ClientStateError('the events/stream request kept ending'));
        break;
      }
      if (this.queue.length >= this.maxBuffered) await this.untilDrained();
      else if (failures > 0)
        await this.pause((this.options.reconnectDelayMs ?? 500) * 2 ** (failures - 1));
    }
    this.closed = true;
    this.failOpened?.(
      this.failure ?? new ClientStateError('the stream was closed before it opened'),
    );
    for (const waiter of this.waiters.splice(0)) {
      if (this.failure !== undefined) waiter.reject(this.failure);
      else waiter.resolve({ done: true, value: undefined });
    }
  }

  /** One `events/stream` request, from the newest cursor; says how it ended. */
  private async once(): Promise<{ active: boolean; refused?: McpError; error?: unknown }> {
    const controller = new AbortController();
    this.current = controller;
    let id: RequestId | undefined;
    let active = false;
    const off = this.core.on('notification', ({ method, params }) => {
      if (id === undefined || !isPlainObject(params)) return;
      if ((params._meta as Record<string, unknown> | undefined)?.[SUBSCRIPTION_ID_META] !== id)
        return;
      if (method === 'notifications/events/active') active = true;
      try {
        this.hear(method, params, controller);
      } catch (violation) {
        this.core.events.emit('violation', violation as Error);
      }
      if (active) this.markOpened?.();
    });
    try {
      await this.core.request(
        'events/stream',
        this.params(),
        { signal: controller.signal, timeoutMs: 0, onRequestId: (sent) => (id = sent) },
        { extensions: { [EVENTS_EXTENSION]: {} }, checkAs: '' },
      );
      return { active };
    } catch (error) {
      // Refused before it opened: the server's answer stands. Ended after it opened: reopen.
      if (error instanceof McpError && !active) return { active, refused: error };
      return { active, error };
    } finally {
      off();
      this.current = undefined;
    }
  }

  private hear(method: string, params: Record<string, unknown>, controller: AbortController): void {
    if (method === 'notifications/events/event') {
      const occurrence = checkOccurrence(params);
      const { _meta: _ignored, ...plain } = occurrence as EventOccurrence & { _meta?: unknown };
      this.deliver(plain);
      if (typeof occurrence.cursor === 'string') this.cursor = occurrence.cursor;
      // A reader this far behind: stop the request until it catches up, then resume from the cursor.
      if (this.queue.length >= this.maxBuffered) controller.abort();
    } else if (
      method === 'notifications/events/active' ||
      method === 'notifications/events/heartbeat'
    ) {
      if (typeof params.cursor === 'string') this.cursor = params.cursor;
      if (params.truncated === true) this.truncated = true;
    }
  }

  private deliver(occurrence: EventOccurrence): void {
    const waiter = this.waiters.shift();
    if (waiter) waiter.resolve({ done: false, value: occurrence });
    else this.queue.push(occurrence);
  }

  private params(): Record<string, unknown> {
    const params: Record<string, unknown> = {
      name: this.subscription.name,
      arguments: this.subscription.arguments ?? {},
      cursor: this.cursor,
    };
    if (this.subscription.maxAgeMs !== undefined) params.maxAgeMs = this.subscription.maxAgeMs;
    return params;
  }

  private fail(error: unknown): void {
    this.failure = error instanceof Error ? error : new ClientStateError(String(error));
  }

  private untilDrained(): Promise<void> {
    return new Promise((resolve) => (this.drained = resolve));
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.drained = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
