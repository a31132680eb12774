import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ProtocolViolationError } from '../errors.js';

/** What reading an SSE stream learned for resuming it. */
export interface StreamPosition {
  /** The id of the last event read, for `Last-Event-ID`. */
  lastEventId: string | undefined;
  /** The reconnection delay the server asked for (`retry:`), in ms. */
  retryMs: number | undefined;
}

/**
 * Reads a JSON body with a size cap, refusing a larger one without holding it (bodies stream in,
 * so the cap bounds memory whatever `Content-Length` claims).
 */
export async function readCappedText(response: Response, maxBytes: number): Promise<string> {
  const reader = response.body?.getReader() as ReadableStreamDefaultReader<Uint8Array> | undefined;
  if (!reader) return '';
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.length;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new ProtocolViolationError(
        `the server sent a body of more than ${maxBytes} bytes (limit maxFrameBytes)`,
      );
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** One event of an SSE stream: its name (`message` when it has none) and its data. */
export interface StreamEvent {
  readonly event: string;
  readonly data: string;
}

/**
 * Reads an SSE body, handing each event's data to `onData` and keeping the stream position. An
 * event larger than `maxBytes` ends the stream with a {@link ProtocolViolationError}. Events
 * without data (a priming event that only sets an id and a delay) move the position only. When
 * `onData` returns true the stream is done: the rest is not read.
 */
export function readEventStream(
  response: Response,
  maxBytes: number,
  position: StreamPosition,
  onData: (data: string) => boolean | void,
): Promise<void> {
  return readEvents(response, maxBytes, position, ({ event, data }) =>
    event === 'message' && data.trim() !== '' ? onData(data) : undefined,
  );
}

/**
 * Reads an SSE body to its end, handing each event to `onEvent` (the one SSE read loop of the
 * client's HTTP transports) and keeping the stream position. An event larger than `maxBytes`
 * ends the stream with a {@link ProtocolViolationError}; `onEvent` ends it by returning true
 * (done: the rest is not read) or an error (thrown once the stream is cancelled).
 */
export async function readEvents(
  response: Response,
  maxBytes: number,
  position: StreamPosition,
  onEvent: (event: StreamEvent) => boolean | Error | void,
): Promise<void> {
  const reader = response.body?.getReader() as ReadableStreamDefaultReader<Uint8Array> | undefined;
  if (!reader) return;
  let failure: Error | undefined;
  let finished = false;
  const parser = createParser({
    maxBufferSize: maxBytes,
    onEvent: (event: EventSourceMessage) => {
      if (event.id !== undefined) position.lastEventId = event.id;
      // A failing stream hands on nothing more (the rest of the chunk is dropped with it).
      if (failure) return;
      const outcome = onEvent({ event: event.event ?? 'message', data: event.data });
      if (outcome instanceof Error) failure = outcome;
      else if (outcome === true) finished = true;
    },
    onRetry: (ms) => (position.retryMs = ms),
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') {
        failure ??= new ProtocolViolationError(
          `the server sent an event of more than ${maxBytes} bytes (limit maxFrameBytes)`,
        );
      }
    },
  });
  const decoder = new TextDecoder();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    parser.feed(decoder.decode(value, { stream: true }));
    if (failure || finished) await reader.cancel().catch(() => undefined);
    if (failure) throw failure;
    if (finished) return;
  }
}
