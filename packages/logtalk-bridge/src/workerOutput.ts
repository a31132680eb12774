import type { Readable } from 'node:stream';
import type { Json } from '@rondo/protocol';
import { PrologLoadError } from './errors.js';
import { readLines } from './lineReader.js';
import type { WorkerMessage } from './messages.js';
import type { PrologLogEntry, PrologLogLevel, WorkerLaunch } from './workerContract.js';

/**
 * Passes a worker's stderr or stdout to the log line by line, keeping the last lines of stderr
 * in `tail` (they explain a worker that dies while starting).
 */
export function forwardOutput(
  stream: Readable,
  source: 'stderr' | 'stdout',
  workerId: number,
  launch: WorkerLaunch,
  tail: string[],
): void {
  readLines(stream, launch.maxLineBytes, {
    line: (message) => {
      if (source === 'stderr' && tail.push(message) > 20) tail.shift();
      launch.log({ level: source === 'stderr' ? 'info' : 'warning', workerId, source, message });
    },
    overflow: () =>
      launch.log({ level: 'warning', workerId, source, message: '(overlong line dropped)' }),
  });
}

/** An `mcp_log/2` message written outside any call: it goes to the server's log. */
export function logOutsideCall(
  launch: WorkerLaunch,
  workerId: number,
  message: { level: PrologLogLevel; data: Json },
): void {
  const text = typeof message.data === 'string' ? message.data : JSON.stringify(message.data);
  launch.log({ level: toLocal(message.level), workerId, source: 'bridge', message: text });
}

/** An MCP log level as one of the bridge's own (coarser) levels. */
function toLocal(level: PrologLogLevel): PrologLogEntry['level'] {
  if (level === 'debug' || level === 'info' || level === 'warning') return level;
  return level === 'notice' ? 'info' : 'error';
}

/** The error a worker's `load_error` message reports: the file, line and column it names. */
export function loadError(
  message: Extract<WorkerMessage, { type: 'load_error' }>,
): PrologLoadError {
  const line = message.line ?? lineFromText(message.message);
  return new PrologLoadError(
    message.file,
    line,
    message.message.trim(),
    message.column ?? undefined,
  );
}

/** Logtalk prints "at or above line N" / "between lines N-M" rather than a structured line. */
export function lineFromText(text: string): number | undefined {
  const match = /(?:line|lines) (\d+)/.exec(text) ?? /:(\d+):\d+:/.exec(text);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}
