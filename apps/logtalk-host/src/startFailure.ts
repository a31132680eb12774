import type { Readable, Writable } from 'node:stream';

/** How long a host that cannot start waits for the client's first request before it exits. */
export const START_FAILURE_ANSWER_WAIT_MS = 10_000;

/** The most a host that cannot start reads from stdin while it waits for that request. */
export const START_FAILURE_MAX_INPUT_BYTES = 1024 * 1024;

/** Where {@link answerStartFailure} reads the client's request and writes its answer. */
export interface StartFailureChannel {
  input: Readable & { isTTY?: boolean };
  output: Writable;
}

/**
 * A host that cannot start over stdio still owes its client an answer: a desktop client shows
 * only "Connection closed" for a server that exits without one, and keeps its stderr in a log few
 * users find. So the first request that arrives (`initialize`, or any 2026-07-28 request) is
 * answered with a JSON-RPC error carrying the diagnostic lines; notifications are skipped. Resolves
 * once that answer is written, or when stdin ends, is a terminal, runs past
 * {@link START_FAILURE_MAX_INPUT_BYTES} or no request came within `waitMs`.
 */
export function answerStartFailure(
  lines: readonly string[],
  channel: StartFailureChannel,
  waitMs = START_FAILURE_ANSWER_WAIT_MS,
): Promise<void> {
  if (channel.input.isTTY === true) return Promise.resolve();
  return new Promise((resolve) => {
    let pending = '';
    let read = 0;
    const done = (): void => {
      clearTimeout(timer);
      channel.input.off('data', onData).off('end', done).off('error', done);
      channel.input.pause();
      resolve();
    };
    const onData = (chunk: Buffer | string): void => {
      read += chunk.length;
      pending += chunk.toString();
      let newline = pending.indexOf('\n');
      while (newline >= 0) {
        const id = requestId(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
        if (id !== undefined) {
          channel.output.write(`${JSON.stringify(startFailureAnswer(id, lines))}\n`, done);
          return;
        }
        newline = pending.indexOf('\n');
      }
      if (read > START_FAILURE_MAX_INPUT_BYTES) done();
    };
    const timer = setTimeout(done, waitMs);
    channel.input.on('data', onData).once('end', done).once('error', done);
  });
}

/** The JSON-RPC error answering request `id` of a host that cannot start. */
export function startFailureAnswer(id: string | number, lines: readonly string[]) {
  return {
    jsonrpc: '2.0' as const,
    id,
    error: {
      // The server failed, not the request: an internal error, whatever the client asked.
      code: -32603,
      message: `rondo-logtalk could not start: ${lines.join('; ')}`,
      data: { diagnostics: [...lines] },
    },
  };
}

/** The id of a JSON-RPC request on this line; undefined for a notification, a response or noise. */
function requestId(line: string): string | number | undefined {
  try {
    const message = JSON.parse(line) as { id?: unknown; method?: unknown };
    const { id } = message;
    if (typeof message.method !== 'string') return undefined;
    return typeof id === 'string' || typeof id === 'number' ? id : undefined;
  } catch {
    return undefined;
  }
}
