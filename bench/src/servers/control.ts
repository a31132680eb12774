/**
 * The control channel between the orchestrator and a server under test (Node IPC, so a server's
 * stdin/stdout stay free for the stdio transport): the server reports where it listens, and
 * answers memory questions, optionally after a full GC.
 */

/** What a server reports once it is ready. */
export interface ReadyMessage {
  type: 'ready';
  port?: number;
  /** The path HTTP / WebSocket clients use. */
  path?: string;
}

/** Memory as the server sees it. */
export interface MemoryMessage {
  type: 'memory';
  rss: number;
  heapUsed: number;
}

/** What a server has counted so far: Redis commands sent, when it keeps its state in Redis. */
export interface CountersMessage {
  type: 'counters';
  /** Commands sent to Redis since the server started (`RedisState.stats().commands`, summed over replicas). */
  redisCommands?: number;
}

/** Reads a server's counters when the orchestrator asks (between slices, never during one). */
export type CounterSource = () => Promise<Omit<CountersMessage, 'type'>>;

/**
 * Tells the orchestrator the server is ready, and answers its memory questions (and, with
 * `counters`, its counter questions) from now on.
 */
export function reportReady(
  ready: Omit<ReadyMessage, 'type'> = {},
  counters: CounterSource = async () => ({}),
): void {
  process.on('message', (message: { type?: string; gc?: boolean }) => {
    if (message.type === 'counters') {
      void counters().then((counted) => process.send?.({ type: 'counters', ...counted }));
      return;
    }
    if (message.type !== 'memory') return;
    const collect = (globalThis as { gc?: () => void }).gc;
    if (message.gc && collect) {
      collect();
      collect();
    }
    const usage = process.memoryUsage();
    const reply: MemoryMessage = { type: 'memory', rss: usage.rss, heapUsed: usage.heapUsed };
    process.send?.(reply);
  });
  // The orchestrator died or let go: a server under test never outlives it.
  process.on('disconnect', () => process.exit(0));
  const message: ReadyMessage = { type: 'ready', ...ready };
  process.send?.(message);
}

/** The value of `--name value` in argv, or `fallback`. */
export function argument(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
}
