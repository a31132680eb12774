import type { EventStore } from '@rondo/core';
import { isResponse } from '@rondo/protocol';
import type { SseResponse } from './sse.js';

/**
 * Sends `sink` the events of a POST stream another process writes, after `afterEventId`, until the
 * request's answer (the one response a POST stream carries) has gone out; the response then ends.
 * The client closing it stops the following.
 */
export function followUntilAnswer(
  store: EventStore,
  streamId: string,
  afterEventId: string,
  sink: SseResponse,
  onError: (error: unknown) => void,
): void {
  let stop: (() => void) | undefined;
  let answered = false;
  const end = (): void => {
    stop?.();
    stop = undefined;
    sink.end();
  };
  stop = store.follow?.(
    streamId,
    afterEventId,
    (event) => {
      if (!event.message || answered || !sink.open) return;
      sink.write({ id: event.id, message: event.message });
      if (isResponse(event.message)) {
        answered = true;
        end();
      }
    },
    onError,
  );
  sink.onClose(() => {
    stop?.();
    stop = undefined;
  });
  if (answered) end();
}
