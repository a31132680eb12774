import type { JsonRpcMessage } from '@rondo/protocol';
import type { EventStore, StoredEvent } from './eventStore.js';
import type { SseResponse } from './sse.js';

/** How many undelivered messages a detached standalone stream keeps for the next GET. */
const MAX_PENDING = 1000;

/**
 * One SSE stream of a session: a POST's response stream or the session's standalone GET
 * stream. Events are stored (when an event store is configured) so a client can resume the stream
 * on a new response after its connection dropped; the stream outlives any one response.
 */
export class SessionStream {
  private sink: SseResponse | undefined;
  /** Messages waiting for a response (standalone stream only); made on the first one. */
  private pending: StoredEvent[] | undefined;
  private done = false;

  constructor(
    readonly id: string,
    private readonly store: EventStore | undefined,
    /** True for the standalone stream: messages written while no client listens wait for one. */
    private readonly buffersWhileDetached: boolean,
  ) {}

  /** True while a live response receives this stream's events. */
  get attached(): boolean {
    return this.sink?.open ?? false;
  }

  /** True once the stream's last event was written. */
  get finished(): boolean {
    return this.done;
  }

  /**
   * Makes `sink` the live response, replacing any earlier one (one stream never writes the same
   * event to two responses). `replay` holds stored events to resend first; without it, messages
   * buffered while no response was attached are sent.
   */
  attach(sink: SseResponse, replay?: StoredEvent[]): void {
    if (this.sink && this.sink !== sink) this.sink.end();
    this.sink = sink;
    const backlog = replay ?? this.pending ?? [];
    this.pending = undefined;
    for (const event of backlog) {
      if (event.message)
        sink.write(
          event.id ? { id: event.id, message: event.message } : { message: event.message },
        );
    }
    if (this.done) sink.end();
  }

  /**
   * Ends the live response, not the stream: what is written next is stored (and, on the
   * standalone stream, kept pending) for the client's next GET.
   */
  detach(): void {
    this.sink?.end();
    this.sink = undefined;
  }

  /**
   * Writes a priming event: an id with empty data, so a client that loses the stream before the
   * first real event can still resume it, and the reconnection delay the client should use. Only
   * for a client that reads such an event as a resumption point; older ones choke on empty data.
   */
  prime(retryMs: number | undefined): void {
    if (!this.store) return;
    const id = this.store.append(this.id, undefined);
    this.sink?.write({ id, ...(retryMs === undefined ? {} : { retryMs }) });
  }

  /** Writes one message: stored for resumption, sent live or (standalone stream) kept pending. */
  write(message: JsonRpcMessage): void {
    const id = this.store?.append(this.id, message) ?? '';
    if (this.sink?.open) {
      this.sink.write(id ? { id, message } : { message });
    } else if (this.buffersWhileDetached) {
      const pending = (this.pending ??= []);
      pending.push({ id, message });
      if (pending.length > MAX_PENDING) pending.shift();
    }
  }

  /** Ends the stream: the live response (if any) closes after the last event. */
  finish(): void {
    this.done = true;
    this.sink?.end();
    this.sink = undefined;
    this.pending = undefined;
  }
}
