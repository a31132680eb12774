import { Client, type ClientHandlers, type EraChoice, type ServerFacts } from '@rondo/client';
import { ErrorCode, McpError } from '@rondo/protocol';
import { redactForCaller, redactForOperator } from './redaction.js';
import { describeUpstream, transportFor, type UpstreamSpec } from './upstreamSpec.js';

/** How the link connects and reconnects. */
export interface ConnectionOptions {
  /** First wait after a failure (ms). Default 500. */
  readonly initialDelayMs?: number;
  /** Longest wait (ms). Default 30,000. */
  readonly maxDelayMs?: number;
  /**
   * Deadline of each request of a connection attempt, and of list and completion requests (ms).
   * An attempt as a whole (a transport that never finishes starting included) ends at twice it.
   * Default 30,000.
   */
  readonly connectTimeoutMs?: number;
  /**
   * The era to speak to the upstream: `auto` (default) asks `server/discover` and falls back to
   * `initialize`; a revision pins it (a server whose legacy wire offers more than its modern one).
   */
  readonly era?: EraChoice;
  /**
   * False while the connection may not be opened yet (an upstream acting for each caller, before
   * its first caller): `start()` then fails saying so, and a later `start()` opens it.
   */
  readonly startable?: () => boolean;
}

/** Where an upstream connection stands: `idle` before its first attempt. */
export type UpstreamState = 'idle' | 'connecting' | 'connected' | 'down' | 'closed';

/** An upstream connection's state, for an operator (progress lines, readiness, metrics). */
export interface UpstreamStatus {
  readonly state: UpstreamState;
  /** The era and revision spoken, while connected. */
  readonly era?: 'modern' | 'legacy';
  readonly revision?: string;
  /** The upstream's `serverInfo` name and version, while connected. */
  readonly server?: string;
  /** The last failure (with the upstream's last stderr line), kept after a reconnection too. */
  readonly lastError?: string;
  /**
   * The same failure as a caller may read it: without the upstream's stderr, URLs cut to scheme,
   * host and path (for a report anyone reaching the gateway may see).
   */
  readonly lastPublicError?: string;
  /** When the next attempt starts (epoch ms), while down. */
  readonly retryAt?: number;
}

/** What the link reports to its provider. */
export interface LinkEvents {
  /** A connection is up (the first one, or one after a restart): the catalog may differ. */
  connected(client: Client): void;
  /** A notification the client turned into an event (list changes, resource updates, logs). */
  wire(client: Client): void;
  /** The state changed (an attempt starts, succeeds or fails; the link closes). */
  status?(status: UpstreamStatus): void;
}

/** A connection that lived this long (ms) counts as stable: its end restarts the backoff. */
const STABLE_MS = 10_000;

type LinkState =
  | { readonly kind: 'connecting'; readonly ready: Promise<Client>; readonly client: Client }
  | { readonly kind: 'up'; readonly client: Client }
  | {
      readonly kind: 'down';
      /** Why, for the operator: with the process's last stderr line, URLs redacted. */
      readonly reason: string;
      /** Why, for a caller: no stderr, URLs without user, query or fragment. */
      readonly publicReason: string;
      readonly retryAt: number;
    }
  | { readonly kind: 'closed' };

/**
 * One upstream server's connection and its life: it connects, and when the connection ends
 * (a child process that exits, a socket that closes) or cannot be made, it tries again after a
 * backoff that doubles up to a ceiling; meanwhile {@link client} fails at once with a message
 * saying why and when the next attempt is. It never throws past its provider.
 */
export class UpstreamLink {
  readonly label: string;
  private state: LinkState = {
    kind: 'down',
    reason: 'not started',
    publicReason: 'not started',
    retryAt: 0,
  };
  private delayMs: number;
  private retryTimer: NodeJS.Timeout | undefined;
  private connectedAt = 0;
  private started = false;
  /** The last failure, for the operator and as a caller may read it. */
  private lastFailure: { readonly lastError: string; readonly lastPublicError: string } | undefined;

  constructor(
    readonly name: string,
    private readonly spec: UpstreamSpec,
    private readonly handlers: ClientHandlers,
    private readonly events: LinkEvents,
    private readonly policy: ConnectionOptions = {},
  ) {
    this.label = describeUpstream(spec);
    this.delayMs = policy.initialDelayMs ?? 500;
  }

  /** What the upstream said about itself, when connected. */
  get facts(): ServerFacts | undefined {
    return this.state.kind === 'up' ? this.state.client.server : undefined;
  }

  /** Where the connection stands, and its last failure. */
  get status(): UpstreamStatus {
    const lastError = this.lastFailure ?? {};
    const state = this.state;
    switch (state.kind) {
      case 'up': {
        const { era, protocolVersion, serverInfo } = state.client.server;
        const server = `${serverInfo?.name ?? 'unnamed'} ${serverInfo?.version ?? ''}`.trim();
        return { state: 'connected', era, revision: protocolVersion, server, ...lastError };
      }
      case 'down':
        return this.started
          ? { state: 'down', retryAt: state.retryAt, ...lastError }
          : { state: 'idle' };
      case 'connecting':
      case 'closed':
        return { state: state.kind, ...lastError };
    }
  }

  /** The client while the upstream is connected (no waiting, no error otherwise). */
  get connected(): Client | undefined {
    return this.state.kind === 'up' ? this.state.client : undefined;
  }

  /**
   * Why the upstream is unavailable, when it is, for the operator's log and `check`: the error and
   * the last line the process wrote to stderr, URLs redacted. Callers get less (see {@link client}).
   */
  get downReason(): string | undefined {
    return this.state.kind === 'down' ? this.state.reason : undefined;
  }

  /**
   * Connects the first time; after that, the connection (or the error saying why there is none):
   * later attempts follow the backoff by themselves.
   */
  start(): Promise<Client> {
    if (this.started) return this.client();
    if (this.policy.startable?.() === false) {
      const why = `Upstream "${this.name}" connects on its first caller's request`;
      return Promise.reject(new McpError(ErrorCode.InternalError, why, { upstream: this.name }));
    }
    this.started = true;
    return this.connect();
  }

  /**
   * The connected client; an `McpError` saying why when the upstream is down, in words a remote
   * caller may see: never the upstream's stderr, a URL's user, query or fragment.
   */
  async client(): Promise<Client> {
    switch (this.state.kind) {
      case 'up':
        return this.state.client;
      case 'connecting':
        return this.state.ready;
      case 'closed':
        throw new McpError(ErrorCode.InternalError, `Upstream "${this.name}" is closed`);
      case 'down': {
        const wait = Math.max(0, this.state.retryAt - Date.now());
        throw new McpError(
          ErrorCode.InternalError,
          `Upstream "${this.name}" is unavailable (${this.state.publicReason}); next attempt in ${Math.ceil(wait / 1000)} s`,
          { upstream: this.name },
        );
      }
    }
  }

  /** Closes the connection and stops reconnecting. */
  async close(): Promise<void> {
    clearTimeout(this.retryTimer);
    const previous = this.state;
    this.state = { kind: 'closed' };
    if (previous.kind !== 'closed') this.events.status?.(this.status);
    if (previous.kind === 'up') await previous.client.close().catch(() => undefined);
    // Closing the client ends a connection still being made at once (its process, its socket):
    // an upstream that never answers must not keep its process past the gateway's own end.
    if (previous.kind === 'connecting') {
      await previous.client.close().catch(() => undefined);
      await previous.ready.catch(() => undefined);
    }
  }

  private connect(): Promise<Client> {
    const transport = transportFor(this.spec);
    const timeoutMs = this.policy.connectTimeoutMs ?? 30_000;
    const client = new Client({
      transport,
      era: this.policy.era ?? 'auto',
      handlers: this.handlers,
      clientInfo: { name: 'rondo-gateway', version: '0.1.0' },
      requestTimeoutMs: timeoutMs,
    });
    const connecting = withinDeadline(client.connect(), 2 * timeoutMs, () => void client.close());
    const ready = connecting.then(
      () => {
        if (this.state.kind === 'closed') {
          void client.close();
          throw new McpError(ErrorCode.InternalError, `Upstream "${this.name}" is closed`);
        }
        this.state = { kind: 'up', client };
        this.connectedAt = Date.now();
        // The upstream sends every log message; each call's own threshold filters what its caller gets.
        if (client.era === 'modern' || client.capabilities.logging) {
          client.setLogLevel('debug').catch(() => undefined);
        }
        client.on('closed', (error) => this.ended(client, error, transport));
        this.events.wire(client);
        this.events.status?.(this.status);
        this.events.connected(client);
        return client;
      },
      (error: unknown) => {
        this.failed(error, transport);
        throw new McpError(
          ErrorCode.InternalError,
          `Upstream "${this.name}" could not be reached: ${publicReasonOf(error)}`,
          { upstream: this.name },
        );
      },
    );
    this.state = { kind: 'connecting', ready, client };
    this.events.status?.(this.status);
    ready.catch(() => undefined);
    return ready;
  }

  private ended(client: Client, error: Error | undefined, transport: unknown): void {
    if (this.state.kind !== 'up' || this.state.client !== client) return;
    // A connection that lived a while starts the backoff again; one that dies at once keeps doubling it.
    if (Date.now() - this.connectedAt > STABLE_MS) this.delayMs = this.policy.initialDelayMs ?? 500;
    this.failed(error ?? new Error('the connection closed'), transport);
  }

  private failed(error: unknown, transport: unknown): void {
    if (this.state.kind === 'closed') return;
    const delay = this.delayMs;
    this.delayMs = Math.min(delay * 2, this.policy.maxDelayMs ?? 30_000);
    const reason = reasonOf(error, transport);
    const publicReason = publicReasonOf(error);
    this.state = { kind: 'down', reason, publicReason, retryAt: Date.now() + delay };
    this.lastFailure = { lastError: reason, lastPublicError: publicReason };
    this.events.status?.(this.status);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      if (this.state.kind === 'down') this.connect().catch(() => undefined);
    }, delay);
    this.retryTimer.unref();
  }
}

/**
 * `connecting`, or a rejection once `ms` pass before it settles (`abandon` then ends the attempt):
 * the client's request deadlines start only once its transport has started, and a transport (a
 * custom one) may never finish starting.
 */
function withinDeadline<T>(connecting: Promise<T>, ms: number, abandon: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      abandon();
      reject(new Error(`no connection within ${ms} ms (twice connectTimeoutMs)`));
    }, ms);
  });
  return Promise.race([connecting, deadline]).finally(() => clearTimeout(timer));
}

/** The first line of an error's message. */
function firstLine(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
}

/** A one-line reason for a caller: the error's message, its URLs cut to host and path. */
function publicReasonOf(error: unknown): string {
  return redactForCaller(firstLine(error));
}

/**
 * A one-line reason for the operator: the error's message, with the last line the upstream wrote
 * to stderr, URLs redacted.
 */
function reasonOf(error: unknown, transport: unknown): string {
  const message = firstLine(error);
  const stderr = (transport as { stderr?: unknown }).stderr;
  const last =
    typeof stderr === 'string'
      ? stderr.trim().split('\n').filter(Boolean).at(-1)?.slice(0, 200)
      : undefined;
  return redactForOperator(
    last && !message.includes(last) ? `${message}; stderr: ${last}` : message,
  );
}
