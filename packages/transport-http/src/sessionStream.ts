import type { Awaitable, EventStore, StoredEvent } from '@rondo/core';
import type { JsonRpcMessage } from '@rondo/protocol';
import type { SseResponse } from './sse.js';

/** How many undelivered messages a detached standalone stream keeps for the next GET. */
const MAX_PENDING = 1000;

/**
 * One SSE stream of a session: a POST's response stream or the session's standalone GET
 * stream. Events are stored (when an event store is configured) so a client can resume the stream
 * on a new response after its connection dropped; the stream outlives any one response.
 *
 * A shared store (one that can `follow`) answers appends asynchronously: what each append gives is
 * delivered in write order through a chain. The standalone stream of a session several processes
 * serve is written by any of them, so its live response is fed by following the store, never by
 * the writes of this process alone.
 */
export class SessionStream {
  private sink: SseResponse | undefined;
  /** Messages waiting for a response (standalone stream only); made on the first one. */
  private pending: StoredEvent[] | undefined;
  private done = false;
  /** The deliveries still waiting for their appends, in write order. */
  private tail: Promise<void> | undefined;
  private unfollow: (() => void) | undefined;

  constructor(
    readonly id: string,
    private readonly store: EventStore | undefined,
    /** True for the standalone stream: messages written while no client listens wait for one. */
    private readonly buffersWhileDetached: boolean,
    /** Reports a store that failed (the event then goes out live, without an id). */
    private readonly onStoreError: (error: unknown) => void = () => undefined,
  ) {}

  /** True while a live response receives this stream's events. */
  get attached(): boolean {
    return this.sink?.open ?? false;
  }

  /** True once the stream's last event was written. */
  get finished(): boolean {
    return this.done;
  }

  /** True when the live response is fed by following the store (the standalone stream, shared). */
  private get followed(): boolean {
    return this.buffersWhileDetached && this.store?.follow !== undefined;
  }

  /**
   * Makes `sink` the live response, replacing any earlier one (one stream never writes the same
   * event to two responses). `replay` holds stored events to resend first; without it, messages
   * buffered while no response was attached are sent. A followed stream instead follows the store
   * from `afterEventId` (from now, when undefined).
   */
  attach(sink: SseResponse, replay?: StoredEvent[], afterEventId?: string): void {
    this.inOrder(() => {
      if (this.sink && this.sink !== sink) this.sink.end();
      this.stopFollowing();
      this.sink = sink;
      if (this.followed) return this.follow(sink, afterEventId);
      const backlog = replay ?? this.pending ?? [];
      this.pending = undefined;
      for (const event of backlog) if (event.message) sink.write(eventOf(event.id, event.message));
      if (this.done) sink.end();
    });
  }

  /**
   * Ends the live response, not the stream: what is written next is stored (and, on the
   * standalone stream, kept pending) for the client's next GET.
   */
  detach(): void {
    this.inOrder(() => {
      this.stopFollowing();
      this.sink?.end();
      this.sink = undefined;
    });
  }

  /**
   * Writes a priming event: an id with empty data, so a client that loses the stream before the
   * first real event can still resume it, and the reconnection delay the client should use. Only
   * for a client that reads such an event as a resumption point; older ones choke on empty data.
   */
  prime(retryMs: number | undefined): void {
    if (!this.store) return;
    this.afterAppend(this.store.append(this.id, undefined), (id) => {
      if (id) this.sink?.write({ id, ...(retryMs === undefined ? {} : { retryMs }) });
    });
  }

  /**
   * Writes one message: stored for resumption, sent live or (standalone stream) kept pending.
   * `once` names what the message is, so that of several processes writing it, one stores it.
   */
  write(message: JsonRpcMessage, once?: string): void {
    if (!this.store) return this.deliver('', message);
    const appended = this.store.append(this.id, message, once === undefined ? undefined : { once });
    this.afterAppend(appended, (id) => {
      // Undefined: another process stored this very message already.
      if (id !== undefined && !this.followed) this.deliver(id, message);
    });
  }

  /** Ends the stream: the live response (if any) closes after the last event. */
  finish(): void {
    this.inOrder(() => {
      this.done = true;
      this.stopFollowing();
      this.sink?.end();
      this.sink = undefined;
      this.pending = undefined;
    });
  }

  private deliver(id: string, message: JsonRpcMessage): void {
    if (this.sink?.open) {
      this.sink.write(eventOf(id, message));
    } else if (this.buffersWhileDetached) {
      const pending = (this.pending ??= []);
      pending.push({ id, message });
      if (pending.length > MAX_PENDING) pending.shift();
    }
  }

  private follow(sink: SseResponse, afterEventId: string | undefined): void {
    this.unfollow = this.store?.follow?.(
      this.id,
      afterEventId,
      (event) => {
        if (event.message) sink.write(eventOf(event.id, event.message));
      },
      this.onStoreError,
    );
    // The client going away ends the following; the stream waits for the next GET.
    sink.onClose(() => {
      if (this.sink === sink) this.stopFollowing();
    });
  }

  private stopFollowing(): void {
    this.unfollow?.();
    this.unfollow = undefined;
  }

  /** Runs `then` with the append's id once every earlier delivery ran; at once when nothing waits. */
  private afterAppend(
    appended: Awaitable<string | undefined>,
    then: (id: string | undefined) => void,
  ): void {
    if (this.tail === undefined && !(appended instanceof Promise)) return then(appended);
    const settled = Promise.resolve(appended).catch((error: unknown) => {
      this.onStoreError(error);
      return '';
    });
    this.chain(() => settled.then(then));
  }

  /** Runs `step` after the deliveries still waiting; at once when none is. */
  private inOrder(step: () => void): void {
    if (this.tail === undefined) return step();
    this.chain(async () => step());
  }

  private chain(step: () => Promise<void>): void {
    const next = (this.tail ?? Promise.resolve()).then(step).catch(this.onStoreError);
    this.tail = next;
    void next.finally(() => {
      if (this.tail === next) this.tail = undefined;
    });
  }
}

function eventOf(id: string, message: JsonRpcMessage): { id?: string; message: JsonRpcMessage } {
  return id ? { id, message } : { message };
}
