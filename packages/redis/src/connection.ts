import { createHash, randomUUID } from 'node:crypto';
import { SharedStateError } from '@rondo/core';
import { createClient, ErrorReply, type RedisClientType } from '@redis/client';

/** How a {@link RedisConnection} talks to Redis. */
export interface ConnectionOptions {
  readonly url: string;
  /** How long a command may wait for its answer before it fails. */
  readonly commandTimeoutMs: number;
  /** How long the first connection may take before the state fails to start. */
  readonly connectTimeoutMs: number;
  /** Hears failures no caller waits for: a lost connection, a listener that threw. */
  readonly onError: (error: SharedStateError) => void;
}

/** A Lua script with its SHA-1, sent by digest and by text only when Redis lacks it. */
export interface LuaScript {
  readonly source: string;
  readonly sha: string;
}

/** A Lua script ready for {@link RedisConnection.script}. */
export function luaScript(source: string): LuaScript {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

type Client = RedisClientType;

/** The most commands one client queues; past it a command fails instead of piling up. */
const MAX_QUEUED_COMMANDS = 10_000;

/**
 * The connections of one process to Redis: one for commands, one subscribed to the pub/sub
 * channels, one for the blocking reads of followed streams. Every command goes through here, so
 * each one is counted, bounded in time and fails as a {@link SharedStateError}. The clients run
 * without an offline queue: while Redis is unreachable a command fails at once instead of waiting,
 * and each client reconnects by itself.
 */
export class RedisConnection {
  /** Names this process on the channels, so it can tell its own messages from others'. */
  readonly processId = randomUUID();
  /** The URL without its password, for messages. */
  readonly where: string;
  private readonly main: Client;
  private readonly subscriber: Client;
  readonly reader: Client;
  private readonly channels = new Map<string, Set<(payload: string) => void>>();
  private commands = 0;
  private closed = false;

  private constructor(private readonly options: ConnectionOptions) {
    this.where = redactedUrl(options.url);
    this.main = createClient({
      url: options.url,
      disableOfflineQueue: true,
      commandsQueueMaxLength: MAX_QUEUED_COMMANDS,
      socket: {
        connectTimeout: options.connectTimeoutMs,
        reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 1_000),
      },
    });
    this.subscriber = this.main.duplicate();
    this.reader = this.main.duplicate();
    for (const [name, client] of [
      ['command', this.main],
      ['subscriber', this.subscriber],
      ['reader', this.reader],
    ] as const) {
      this.watchHealth(name, client);
    }
  }

  /** Connects all three clients; rejects with a {@link SharedStateError} when Redis cannot be reached in time. */
  static async open(options: ConnectionOptions): Promise<RedisConnection> {
    const connection = new RedisConnection(options);
    const clients = [connection.main, connection.subscriber, connection.reader];
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no connection within ${options.connectTimeoutMs} ms`)),
        options.connectTimeoutMs,
      );
    });
    try {
      await Promise.race([Promise.all(clients.map((client) => client.connect())), deadline]);
    } catch (error) {
      for (const client of clients) client.destroy();
      throw connection.failure(error);
    } finally {
      clearTimeout(timer);
    }
    return connection;
  }

  /** Commands sent since the connection opened (each one a round trip). */
  get commandCount(): number {
    return this.commands;
  }

  /** Sends one command on the command client (or `client`) and returns its raw reply. */
  async call<T = unknown>(args: readonly string[], client: Client = this.main): Promise<T> {
    return this.timed(args, client, this.options.commandTimeoutMs);
  }

  /**
   * Sends one command that may wait up to `waitMs` on the server (a blocking read); its time bound
   * is the command timeout on top of that.
   */
  async callBlocking<T = unknown>(args: readonly string[], waitMs: number): Promise<T> {
    return this.timed(args, this.reader, waitMs + this.options.commandTimeoutMs);
  }

  /** Runs a Lua script: by digest, and once more with its text when Redis does not know it (after a restart). */
  async script<T = unknown>(
    script: LuaScript,
    keys: readonly string[],
    args: readonly (string | number)[],
  ): Promise<T> {
    const rest = [String(keys.length), ...keys, ...args.map(String)];
    try {
      return await this.call<T>(['EVALSHA', script.sha, ...rest]);
    } catch (error) {
      if (!(error instanceof SharedStateError) || !/NOSCRIPT/.test(error.message)) throw error;
      return this.call<T>(['EVAL', script.source, ...rest]);
    }
  }

  /** Publishes `payload` on `channel` to every process (this one included). */
  async publish(channel: string, payload: string): Promise<void> {
    await this.call(['PUBLISH', channel, payload]);
  }

  /**
   * Subscribes the subscriber client to `channels`, in one round trip (the client subscribes again
   * by itself after a reconnect). Resolves when Redis confirmed the subscriptions.
   */
  async subscribe(channels: readonly string[]): Promise<void> {
    for (const channel of channels) this.channels.set(channel, new Set());
    this.commands += 1;
    try {
      await this.subscriber.subscribe([...channels], (payload: string, channel: string) => {
        for (const listener of this.channels.get(channel) ?? []) {
          this.safely(() => listener(payload));
        }
      });
    } catch (error) {
      for (const channel of channels) this.channels.delete(channel);
      throw this.failure(error);
    }
  }

  /** Hears every payload published on a subscribed `channel`; returns the function that stops. */
  listen(channel: string, listener: (payload: string) => void): () => void {
    const listeners = this.channels.get(channel);
    if (listeners === undefined) throw new Error(`not subscribed to ${channel}`);
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  /** Runs a listener, reporting what it throws instead of letting it break the client. */
  safely(run: () => void): void {
    try {
      run();
    } catch (error) {
      this.report(`a listener threw: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Reports a failure no caller waits for. */
  report(message: string): void {
    this.options.onError(new SharedStateError(`Redis at ${this.where}: ${message}`));
  }

  /** Quits every client; commands still waiting fail. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // The reader may be waiting in a blocking read that a graceful quit would wait out.
    this.reader.destroy();
    await Promise.all(
      [this.main, this.subscriber].map(async (client) => {
        try {
          await client.close();
        } catch {
          client.destroy();
        }
      }),
    );
  }

  /** The error a caller sees: what Redis said, or that it could not be reached. */
  failure(error: unknown): SharedStateError {
    if (error instanceof SharedStateError) return error;
    const reason = error instanceof Error ? error.message : String(error);
    const message =
      error instanceof ErrorReply
        ? `Redis at ${this.where} refused a command: ${reason}`
        : `Redis at ${this.where} is unreachable: ${reason}`;
    return new SharedStateError(message, { cause: error });
  }

  private async timed<T>(args: readonly string[], client: Client, timeoutMs: number): Promise<T> {
    if (this.closed) throw new SharedStateError(`Redis at ${this.where}: the state is closed`);
    this.commands += 1;
    let timer: NodeJS.Timeout | undefined;
    // node-redis bounds only the wait before a command is written; a server that stops answering
    // (paused, partitioned) would keep a written command waiting, so the whole call is bounded here.
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([client.sendCommand<T>(args), late]);
    } catch (error) {
      throw this.failure(error);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Reports a lost connection once per outage, and its return. */
  private watchHealth(name: string, client: Client): void {
    let lost = false;
    client.on('error', (error: unknown) => {
      if (lost || this.closed) return;
      lost = true;
      this.report(
        `the ${name} connection was lost, reconnecting: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    client.on('ready', () => {
      lost = false;
    });
  }
}

/** The URL with its password (if any) replaced, for messages and logs. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unparsable Redis URL)';
  }
}
