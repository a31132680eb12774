import type { LogLevel, RondoServer } from '@rondo/core';
import type { CallSetup, CatalogMemo, ClientAsker, WireResult } from '@rondo/core/internal';
import type { JsonObject } from '@rondo/protocol';
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
  /** Resource URIs the client subscribed to. */
  readonly subscriptions = new Set<string>();
  readonly clientRequests: OutstandingRequests;
  /** How the session's handlers ask the client for input; set by the session. */
  asker!: ClientAsker;
  /** The call setup every request shares, and the negotiation it was built for. */
  setup: CallSetup | undefined;
  setupFor: Negotiated | undefined;

  constructor(
    readonly server: RondoServer,
    readonly options: ResolvedLegacyOptions,
    /** List pages in each revision's shape, shared by the sessions of one server. */
    readonly lists: CatalogMemo<WireResult>,
  ) {
    this.logLevel = options.defaultLogLevel;
    this.clientRequests = new OutstandingRequests(options.clientRequestTimeoutMs);
  }

  /** The negotiated facts; only methods served after `initialize` call this. */
  get session(): Negotiated {
    if (!this.negotiated) throw new Error('legacy session used before initialize');
    return this.negotiated;
  }
}
