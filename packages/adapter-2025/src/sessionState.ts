import type { LogLevel } from '@rondo/core';
import type { CallSetup, CatalogMemo, WireResult, ServerRuntime } from '@rondo/core/internal';
import { ErrorCode, McpError, type JsonObject } from '@rondo/protocol';
import { OutstandingRequests } from './clientRequests.js';
import type { ResolvedLegacyOptions, ServedLegacyRevision } from './options.js';

/** What `initialize` settled for a session. */
export interface Negotiated {
  revision: ServedLegacyRevision;
  clientCapabilities: JsonObject;
  clientInfo?: { name: string; version: string };
  /** The server capabilities announced, so change notifications follow what was promised. */
  serverCapabilities: JsonObject;
}

/** The per-session state of the legacy era, shared by its methods. */
export class SessionState {
  /** Set once `initialize` succeeded. */
  negotiated: Negotiated | undefined;
  /** True once the client sent `notifications/initialized`. */
  clientReady = false;
  logLevel: LogLevel | 'off';
  /** Resource URIs the client subscribed to; made on the first subscription. */
  private subscribed: Set<string> | undefined;
  readonly clientRequests: OutstandingRequests;
  /** The call setup every request shares, and the negotiation it was built for. */
  setup: CallSetup | undefined;
  setupFor: Negotiated | undefined;

  constructor(
    readonly runtime: ServerRuntime,
    readonly options: ResolvedLegacyOptions,
    /** List pages in each revision's shape, shared by the sessions of one server. */
    readonly lists: CatalogMemo<WireResult>,
  ) {
    this.logLevel = options.defaultLogLevel;
    this.clientRequests = new OutstandingRequests(
      options.clientRequestTimeoutMs,
      options.maxPendingClientRequests,
    );
  }

  /** Subscribes to a resource URI; -32602 naming the limit past `maxSubscriptions`. */
  subscribe(uri: string): void {
    const subscribed = (this.subscribed ??= new Set());
    if (subscribed.has(uri)) return;
    const max = this.options.maxSubscriptions;
    if (subscribed.size >= max)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Invalid params: this session already has ${max} subscriptions (limit maxSubscriptions); unsubscribe first`,
        { limit: 'maxSubscriptions', maxSubscriptions: max },
      );
    subscribed.add(uri);
  }

  unsubscribe(uri: string): void {
    this.subscribed?.delete(uri);
  }

  isSubscribed(uri: string): boolean {
    return this.subscribed?.has(uri) ?? false;
  }

  /** How many resource URIs the session is subscribed to. */
  get subscriptionCount(): number {
    return this.subscribed?.size ?? 0;
  }

  clearSubscriptions(): void {
    this.subscribed = undefined;
  }

  /** The subscribed URIs, oldest first. */
  subscriptions(): string[] {
    return [...(this.subscribed ?? [])];
  }

  /** Replaces the subscriptions (a restored session), keeping at most `maxSubscriptions`. */
  replaceSubscriptions(uris: readonly string[]): void {
    const kept = uris.slice(0, this.options.maxSubscriptions);
    this.subscribed = kept.length > 0 ? new Set(kept) : undefined;
  }

  /** The negotiated facts; only methods served after `initialize` call this. */
  get session(): Negotiated {
    if (!this.negotiated) throw new Error('legacy session used before initialize');
    return this.negotiated;
  }
}
