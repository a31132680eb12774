import {
  ErrorCode,
  McpError,
  type ClientCapabilities,
  type Era,
  type Implementation,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type LoggingLevel,
  type ServerCapabilities,
} from '@rondo/protocol';
import { ClientStateError } from './errors.js';
import { ClientEventHub, type ClientEventName, type ClientEvents } from './events.js';
import type { FrameLimits } from './frames.js';
import { ownerOf } from './attribution.js';
import { answerInput, capabilitiesFor, type ClientHandlers } from './handlers.js';
import { ModernHeaders } from './http/modernHeaders.js';
import type { HeaderSource } from './openRequest.js';
import { negotiate, type EraChoice, type ServerFacts } from './negotiate.js';
import { runRounds } from './rounds.js';
import type { AnswerReceiver, PendingCall } from './pending.js';
import { RpcSession, type CallOptions } from './rpc.js';
import { ToolCatalog } from './tools.js';
import type { ClientTransport } from './transport.js';
import { legacyWire, modernWire, type EraWire, type ModernIdentity } from './wire.js';

/** How a client connects and what it offers. */
export interface ClientOptions extends FrameLimits {
  /** How to reach the server. */
  readonly transport: ClientTransport;
  /** Which revision to speak: `auto` (default) finds out; a revision pins it. */
  readonly era?: EraChoice;
  /** The client's name and version, as the server sees them. */
  readonly clientInfo?: Implementation;
  /** How the client answers elicitation, sampling and roots; each advertises its capability. */
  readonly handlers?: ClientHandlers;
  /** Capabilities to advertise besides those of the handlers (extensions, say). */
  readonly capabilities?: ClientCapabilities;
  /** A request's deadline (ms). Default 60,000. */
  readonly requestTimeoutMs?: number;
  /** Open requests at most. Default 1024. */
  readonly maxPendingRequests?: number;
  /** Rounds of `input_required` one request may take. Default 10. */
  readonly maxInputRounds?: number;
}

/** What Rondo's own code adds to a request: extensions for it alone, and the schema its result fits. */
export interface InternalRequestOptions {
  /** Extensions declared on this request only (the Tasks extension on a call made as a task). */
  readonly extensions?: Record<string, unknown>;
  /** The method whose result schema the result is checked against; `''` checks nothing here. */
  readonly checkAs?: string;
}

const DEFAULT_CLIENT_INFO: Implementation = { name: 'rondo-client', version: '0.1.0' };

/** Requests of the modern era a server may answer with `input_required`. */
const ROUND_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);

/**
 * The connection machinery under {@link Client}: the session, the negotiated era and the wire of
 * that era. Requests go through {@link ClientCore.request}, which dresses params for the era, adds
 * the modern HTTP headers, runs `input_required` rounds and checks results.
 */
export class ClientCore {
  readonly events = new ClientEventHub();
  readonly tools = new ToolCatalog();
  private readonly rpc: RpcSession;
  private readonly handlers: ClientHandlers;
  private readonly identity: ModernIdentity;
  private facts: ServerFacts | undefined;
  private wire: EraWire | undefined;
  private modernHeaders: HeaderSource | undefined;

  constructor(private readonly options: ClientOptions) {
    this.handlers = options.handlers ?? {};
    this.identity = {
      capabilities: capabilitiesFor(this.handlers, options.capabilities),
      clientInfo: options.clientInfo ?? DEFAULT_CLIENT_INFO,
    };
    this.rpc = new RpcSession(
      options.transport,
      {
        request: (message, related) => this.serverRequest(message, related),
        notification: (message) => this.serverNotification(message),
        violation: (error) => this.events.emit('violation', error),
        closed: (error) => this.events.emit('closed', error),
      },
      options,
    );
  }

  /** What the client learned when it connected; throws before `connect()`. */
  get server(): ServerFacts {
    if (!this.facts) throw new ClientStateError('the client is not connected');
    return this.facts;
  }

  /** Requests open now. */
  get openRequests(): number {
    return this.rpc.openRequests;
  }

  /** Starts the transport and negotiates the era. */
  async connect(): Promise<ServerFacts> {
    if (this.facts) throw new ClientStateError('the client is already connected');
    await this.rpc.start();
    const transport = this.options.transport;
    try {
      this.facts = await negotiate({
        rpc: this.rpc,
        choice: this.options.era ?? 'auto',
        endpointKey: transport.endpointKey,
        capabilities: this.identity.capabilities,
        clientInfo: this.identity.clientInfo,
        timeoutMs: this.options.requestTimeoutMs,
      });
    } catch (error) {
      await this.rpc.close().catch(() => undefined);
      throw error;
    }
    transport.setProtocolVersion?.(this.facts.protocolVersion);
    if (this.facts.era === 'legacy') {
      this.wire = legacyWire(this.facts.protocolVersion);
      await this.rpc.notify('notifications/initialized');
      transport.listen?.();
    } else {
      this.wire = modernWire(this.facts.protocolVersion, this.identity);
      this.modernHeaders = new ModernHeaders(this.facts.protocolVersion, this.tools);
    }
    return this.facts;
  }

  /**
   * Sends a request in the negotiated era and resolves with its checked result. In the modern era
   * a `tools/call`, `prompts/get` or `resources/read` answered with `input_required` is answered
   * with the handlers and sent again until it completes.
   */
  async request(
    method: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions = {},
    internal: InternalRequestOptions = {},
  ): Promise<Record<string, unknown>> {
    const { extensions, checkAs = method } = internal;
    const base = this.wire;
    if (!base) throw new ClientStateError('the client is not connected');
    // Capabilities or extensions declared for one request (a gateway declares its caller's; the
    // Tasks extension on a call made as a task).
    const capabilities = options.capabilities ?? this.identity.capabilities;
    const wire =
      (extensions || options.capabilities) && base.era === 'modern'
        ? modernWire(base.protocolVersion, {
            ...this.identity,
            capabilities: extensions
              ? {
                  ...capabilities,
                  extensions: {
                    ...capabilities.extensions,
                    ...(extensions as Record<string, Record<string, unknown>>),
                  },
                }
              : capabilities,
          })
        : base;
    const send = (sent: Record<string, unknown> | undefined): Promise<Record<string, unknown>> =>
      this.sendOnce(wire, method, checkAs, sent, options);
    if (wire.era === 'legacy' || !ROUND_METHODS.has(method)) return send(params);
    return runRounds({
      method,
      params: params ?? {},
      send,
      handlers: options.handlers ?? this.handlers,
      maxRounds: this.options.maxInputRounds ?? 10,
      signal: options.signal,
    });
  }

  /**
   * Sends a request whose params are already dressed for the negotiated era (a modern request's
   * `_meta` included) and resolves with the server's result as it came: no `input_required` rounds,
   * no result checks. A gateway passes a caller's request through this way, and the caller checks
   * the answer. A JSON-RPC error still rejects as an `McpError`.
   */
  forward(
    method: string,
    params: Record<string, unknown>,
    options: CallOptions = {},
  ): Promise<Record<string, unknown>> {
    const wire = this.wire;
    if (!wire) return Promise.reject(new ClientStateError('the client is not connected'));
    return this.rpc.request(method, params, options, this.headersOf(wire));
  }

  /** {@link forward}, with the answer given to `receiver` instead of a promise. */
  forwardTo(
    method: string,
    params: Record<string, unknown>,
    receiver: AnswerReceiver,
    options: CallOptions = {},
  ): void {
    const wire = this.wire;
    if (!wire) return receiver.reject(new ClientStateError('the client is not connected'));
    this.rpc.requestTo(method, params, receiver, options, this.headersOf(wire));
  }

  /** Sends a notification. */
  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    return this.rpc.notify(method, params);
  }

  /** Sets the log level: a request in the legacy era, a `_meta` member of every later request in the modern era. */
  async setLogLevel(level: LoggingLevel): Promise<void> {
    if (this.server.era === 'legacy') await this.request('logging/setLevel', { level });
    else this.identity.logLevel = level;
  }

  /** Closes the connection; open requests fail with {@link ClientStateError}. */
  close(): Promise<void> {
    return this.rpc.close();
  }

  /** The client's handlers (for task input). */
  get clientHandlers(): ClientHandlers {
    return this.handlers;
  }

  /** The era in use. */
  get era(): Era {
    return this.server.era;
  }

  /** The server's capabilities. */
  get capabilities(): ServerCapabilities {
    return this.server.capabilities;
  }

  /** Adds an event listener; returns the function that removes it. */
  on<E extends ClientEventName>(event: E, listener: (value: ClientEvents[E]) => void): () => void {
    return this.events.on(event, listener);
  }

  private async sendOnce(
    wire: EraWire,
    method: string,
    checkAs: string,
    params: Record<string, unknown> | undefined,
    options: CallOptions,
  ): Promise<Record<string, unknown>> {
    // The headers mirror the name and arguments, which the era's dressing leaves as they are.
    const sent = wire.params(params);
    const result = await this.rpc.request(method, sent, options, this.headersOf(wire));
    return wire.check(checkAs, result);
  }

  /** The modern wire's HTTP headers (made only if the transport reads them); none on the legacy wire. */
  private headersOf(wire: EraWire): HeaderSource | undefined {
    return wire.era === 'modern' ? this.modernHeaders : undefined;
  }

  private async serverRequest(
    message: JsonRpcRequest,
    related: PendingCall | undefined,
  ): Promise<Record<string, unknown>> {
    if (message.method === 'ping') return {};
    if (!['elicitation/create', 'sampling/createMessage', 'roots/list'].includes(message.method)) {
      throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${message.method}`);
    }
    const owner = ownerOf(message, related, this.rpc);
    const call = owner.kind === 'call' ? owner.call : undefined;
    return answerInput(call?.handlers ?? this.handlers, message.method, message.params, {
      era: 'legacy',
      signal: call?.signal,
    });
  }

  private serverNotification(message: JsonRpcNotification): void {
    const params = message.params;
    switch (message.method) {
      case 'notifications/tools/list_changed':
        return this.events.emit('toolsListChanged', undefined);
      case 'notifications/prompts/list_changed':
        return this.events.emit('promptsListChanged', undefined);
      case 'notifications/resources/list_changed':
        return this.events.emit('resourcesListChanged', undefined);
      case 'notifications/resources/updated':
        if (typeof params?.uri === 'string')
          this.events.emit('resourceUpdated', { uri: params.uri });
        return;
      case 'notifications/message':
        if (params && typeof params.level === 'string') {
          this.events.emit('log', params as ClientEvents['log']);
        }
        return;
      default:
        this.events.emit('notification', { method: message.method, params });
    }
  }
}
