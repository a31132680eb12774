import type { WireMessage, WireParams } from '../../stdio/support/wire.js';
import { WireValidator } from '@rondo/test-support/specSchemas';
import type { TransportDriver } from './transports.js';
import { scaled } from '@rondo/test-support/timeFactor';

/** The eras the contract suite speaks, each at one revision. */
export const ERAS = ['legacy', 'modern'] as const;
export type EraName = (typeof ERAS)[number];

export const REVISION = { legacy: '2025-11-25', modern: '2026-07-28' } as const;
const MODERN = REVISION.modern;

/** What the client declares, in both eras. */
export const CLIENT_CAPABILITIES = { elicitation: {} };
const CLIENT_INFO = { name: 'rondo-contract-client', version: '1.0.0' };

/** The `_meta` keys of the modern era. */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
} as const;

/** The body member the modern `Mcp-Name` header mirrors. */
const NAME_SOURCE: Record<string, 'name' | 'uri'> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

type ServerRequestHandler = (params: WireParams) => Record<string, unknown>;

/** Options of one request. */
export interface RequestOptions {
  /** Extra `_meta` members (a progress token, a log level). */
  meta?: Record<string, unknown>;
}

/**
 * A raw client of one era over a transport driver: it numbers requests, adds what its era puts
 * on every message (the modern `_meta` and headers; the legacy session's version header),
 * answers server-to-client requests with the handlers it was given, and keeps everything sent and
 * received so every server message can be validated against the revision's schema.
 */
export class EraClient {
  readonly revision: (typeof REVISION)[EraName];
  readonly received: WireMessage[] = [];
  readonly sent: WireMessage[] = [];
  /** The legacy `initialize` result (undefined in the modern era). */
  initializeResult: Record<string, unknown> | undefined;
  private nextId = 1;
  private readonly handlers = new Map<string, ServerRequestHandler>();
  private readonly waiters = new Set<() => void>();
  private readonly validator: WireValidator | undefined;

  constructor(
    readonly era: EraName,
    readonly driver: TransportDriver,
  ) {
    this.revision = REVISION[era];
    this.validator = WireValidator.load(this.revision);
    driver.onMessage((message) => this.take(message));
  }

  /** Legacy: `initialize`, `notifications/initialized`, then the session channel. Modern: nothing. */
  async start(): Promise<void> {
    if (this.era === 'modern') return;
    const response = await this.request('initialize', {
      protocolVersion: this.revision,
      capabilities: CLIENT_CAPABILITIES,
      clientInfo: CLIENT_INFO,
    });
    if (!response.result) throw new Error(`initialize failed: ${JSON.stringify(response.error)}`);
    this.initializeResult = response.result;
    await this.notify('notifications/initialized');
    await this.driver.openSessionChannel(this.headersFor(undefined, undefined));
  }

  /** Answers the server's requests for `method` with `handler`'s result. */
  handle(method: string, handler: ServerRequestHandler): void {
    this.handlers.set(method, handler);
  }

  /** Sends a request without waiting: its id, and the promise of its response. */
  send(
    method: string,
    params: WireParams = {},
    options: RequestOptions = {},
  ): { id: number; response: Promise<WireMessage> } {
    const id = this.nextId++;
    const message: WireMessage = {
      jsonrpc: '2.0',
      id,
      method,
      params: this.paramsFor(params, options),
    };
    this.sent.push(message);
    const response = this.driver
      .send(message, this.headersFor(method, message.params))
      .then(() =>
        this.waitFor((m) => m.id === id && m.method === undefined, scaled(10_000), 0, method),
      );
    // A caller may never await a request it cancelled; its rejection must not go unhandled.
    response.catch(() => undefined);
    return { id, response };
  }

  /** Sends a request and waits for its response (a result or an error). */
  request(method: string, params?: WireParams, options?: RequestOptions): Promise<WireMessage> {
    return this.send(method, params, options).response;
  }

  /** Sends a request and returns its result; throws on an error response. */
  async call(
    method: string,
    params?: WireParams,
    options?: RequestOptions,
  ): Promise<Record<string, unknown>> {
    const response = await this.request(method, params, options);
    if (!response.result) throw new Error(`${method} failed: ${JSON.stringify(response.error)}`);
    return response.result;
  }

  async notify(method: string, params: WireParams = {}): Promise<void> {
    const message: WireMessage = { jsonrpc: '2.0', method, params: this.paramsFor(params, {}) };
    this.sent.push(message);
    await this.driver.send(message, this.headersFor(method, message.params));
  }

  /** Sends text that is not JSON, with the headers a request of `method` would carry. */
  async sendText(text: string, method: string): Promise<void> {
    await this.driver.sendText(text, this.headersFor(method, {}));
  }

  /** Waits for a received message (from index `from` on) that matches. */
  async waitFor(
    predicate: (message: WireMessage) => boolean,
    timeoutMs = scaled(5000),
    from = 0,
    what = 'a matching message',
  ): Promise<WireMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.slice(from).find(predicate);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(
          `${this.era} over ${this.driver.transport}: no answer to ${what} within ${timeoutMs} ms; last received ${JSON.stringify(this.received.slice(-3))}`,
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(wake, Math.min(left, 250));
        function wake(): void {
          clearTimeout(timer);
          resolve();
        }
        this.waiters.add(wake);
      });
    }
  }

  /** Problems of what the server wrote from index `from` on, by the revision's schema. */
  problems(from = 0): string[] {
    const noise = this.driver.noise.map((line) => `not JSON-RPC: ${line.slice(0, 200)}`);
    return [...noise, ...(this.validator?.problems(this.received.slice(from), this.sent) ?? [])];
  }

  close(): Promise<void> {
    return this.driver.close();
  }

  private take(message: WireMessage): void {
    this.received.push(message);
    for (const wake of [...this.waiters]) wake();
    this.waiters.clear();
    if (message.method !== undefined && message.id !== undefined && message.id !== null) {
      void this.answer(message);
    }
  }

  private async answer(request: WireMessage): Promise<void> {
    const handler = this.handlers.get(request.method!);
    const reply: WireMessage = handler
      ? { jsonrpc: '2.0', id: request.id!, result: handler(request.params ?? {}) }
      : {
          jsonrpc: '2.0',
          id: request.id!,
          error: { code: -32601, message: `the test client has no ${request.method}` },
        };
    this.sent.push(reply);
    await this.driver.send(reply, this.headersFor(undefined, undefined));
  }

  private paramsFor(params: WireParams, options: RequestOptions): WireParams {
    if (this.era === 'legacy') {
      return options.meta ? { ...params, _meta: { ...params._meta, ...options.meta } } : params;
    }
    return {
      ...params,
      _meta: {
        [META.protocolVersion]: MODERN,
        [META.clientCapabilities]: CLIENT_CAPABILITIES,
        [META.clientInfo]: CLIENT_INFO,
        ...params._meta,
        ...options.meta,
      },
    };
  }

  /** The HTTP headers of a message: the version always, and in the modern era the mirrors. */
  private headersFor(method: string | undefined, params: WireParams | undefined) {
    if (this.era === 'legacy' && method === 'initialize') return {};
    const headers: Record<string, string> = { 'mcp-protocol-version': this.revision };
    if (this.era === 'modern' && method !== undefined) {
      headers['mcp-method'] = method;
      const source = NAME_SOURCE[method];
      const name = source ? params?.[source] : undefined;
      if (typeof name === 'string') headers['mcp-name'] = name;
    }
    return headers;
  }
}
