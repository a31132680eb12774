import type { JsonRpcMessage } from '@rondo/protocol';

/** A value a store may give at once (in memory) or later (over a network). */
export type Awaitable<T> = T | Promise<T>;

/** One stored SSE event: its id and the message it carried (none for a priming event). */
export interface StoredEvent {
  id: string;
  message: JsonRpcMessage | undefined;
}

/** The events of one stream that follow a given event id. */
export interface ReplayedEvents {
  streamId: string;
  events: StoredEvent[];
}

/** Options of one {@link EventStore.append}. */
export interface AppendOptions {
  /**
   * A key naming what this event is (a change notification for one session, say): of several
   * appends with the same key to one stream, only the first stores an event, so processes that
   * each announce the same change deliver it once. The key is kept for a minute.
   */
  once?: string;
}

/**
 * Keeps the SSE events of session streams so a client whose stream dropped can resume with
 * `Last-Event-ID`. The streams of one session have ids that share the part before their last `.`
 * (`<session id>.<stream>`). A store in memory answers at once; a shared store (Redis Streams)
 * answers asynchronously, and the caller keeps the order of one stream's appends by waiting for each
 * before the next.
 */
export interface EventStore {
  /**
   * Stores one event of a stream and returns the event id to send with it; `undefined` when
   * `options.once` names a key already stored on that stream (nothing was stored).
   */
  append(
    streamId: string,
    message: JsonRpcMessage | undefined,
    options?: AppendOptions,
  ): Awaitable<string | undefined>;
  /** The events after `eventId` on that event's stream, oldest first; undefined for an unknown id. */
  replayAfter(eventId: string): Awaitable<ReplayedEvents | undefined>;
  /** Forgets a stream's events (its session ended). */
  forget(streamId: string): Awaitable<void>;
  /**
   * Follows a stream others append to (a shared store only): calls `onEvent` with every event
   * appended after `afterEventId` (after now, when undefined), by any process, in order, until the
   * returned function is called. `onError` hears a failure to read (the store is unreachable);
   * following resumes by itself when it is back.
   */
  follow?(
    streamId: string,
    afterEventId: string | undefined,
    onEvent: (event: StoredEvent) => void,
    onError?: (error: Error) => void,
  ): () => void;
}
