import {
  classifyMessage,
  isPlainObject,
  type JsonObject,
  type JsonRpcMessage,
} from '@rondo/protocol';
import type { EndpointFacts, EraAdapter, EraSession } from './contracts/era.js';
import type { ServerRuntime } from './runtime.js';
import { runtimeOf } from './server.js';
import type { RondoServer } from './server.js';
import type { Connection, Endpoint, Exchange, Peer } from './contracts/transport.js';

export interface EndpointOptions {
  /** The adapter of the modern era (2026-07-28). */
  modern?: EraAdapter;
  /** The adapter of the legacy era (2025-06-18, 2025-11-25). */
  legacy?: EraAdapter;
}

/**
 * Composes a server with the eras it speaks. Each inbound message goes to one adapter: modern when
 * it carries a modern `_meta`, legacy for `initialize`, otherwise the legacy session once
 * `initialize` has made one, and the modern era before that (which answers a request without
 * `_meta` with its precise error). An endpoint with one era sends everything to it.
 */
export function createEndpoint(server: RondoServer, eras: EndpointOptions): Endpoint {
  const runtime = runtimeOf(server);
  const facts: EndpointFacts = {
    revisions: [...new Set([...(eras.modern?.revisions ?? []), ...(eras.legacy?.revisions ?? [])])],
  };
  return {
    connect: (peer) => new RoutedConnection(runtime, eras, facts, peer),
    restore: (peer, snapshot) => {
      const connection = new RoutedConnection(runtime, eras, facts, peer);
      connection.restoreFrom(snapshot);
      return connection;
    },
    shared: runtime.shared,
    routes: runtime.extensions.flatMap((extension) => extension.routes ?? []),
    ready: () => runtime.ready(),
    close: () => runtime.close(),
    servedOverNetwork: () => runtime.sealer.expectSeveralProcesses(),
  };
}

class RoutedConnection implements Connection {
  private modern: EraSession | undefined;
  private legacy: EraSession | undefined;

  constructor(
    private readonly runtime: ServerRuntime,
    private readonly eras: EndpointOptions,
    private readonly facts: EndpointFacts,
    private readonly peer: Peer,
  ) {}

  get stateful(): boolean {
    return (this.legacy?.stateful ?? false) || (this.modern?.stateful ?? false);
  }

  get inFlight(): number {
    return (this.legacy?.inFlight ?? 0) + (this.modern?.inFlight ?? 0);
  }

  get resumesStreams(): boolean {
    return (this.legacy?.resumesStreams ?? false) || (this.modern?.resumesStreams ?? false);
  }

  receive(message: JsonRpcMessage, exchange: Exchange): void {
    const session = this.sessionFor(message);
    if (session) {
      session.receive(message, exchange);
    } else {
      exchange.end();
    }
  }

  close(): void {
    this.modern?.close();
    this.legacy?.close();
  }

  /** The stateful era's state, under its era's name (only the legacy era keeps any). */
  snapshot(): JsonObject | undefined {
    const legacy = this.legacy?.stateful ? this.legacy.snapshot?.() : undefined;
    return legacy ? { legacy } : undefined;
  }

  refresh(snapshot: JsonObject): void {
    const legacy = snapshot.legacy;
    if (isPlainObject(legacy)) this.legacy?.refresh?.(legacy);
  }

  /** Rebuilds the era sessions a snapshot names; one whose era is not served here is left out. */
  restoreFrom(snapshot: JsonObject): void {
    const legacy = snapshot.legacy;
    const adapter = this.eras.legacy;
    if (!isPlainObject(legacy) || !adapter?.restore) return;
    this.legacy = adapter.restore(this.runtime, this.peer, this.facts, legacy);
  }

  private sessionFor(message: JsonRpcMessage): EraSession | undefined {
    switch (classifyMessage(message)) {
      case 'modern':
        return this.modernSession() ?? this.legacySession();
      case 'initialize':
        return this.legacySession() ?? this.modernSession();
      case 'session':
        if (this.legacy?.stateful) return this.legacy;
        return this.modernSession() ?? this.legacySession();
    }
  }

  private modernSession(): EraSession | undefined {
    if (!this.modern && this.eras.modern)
      this.modern = this.eras.modern.open(this.runtime, this.peer, this.facts);
    return this.modern;
  }

  private legacySession(): EraSession | undefined {
    if (!this.legacy && this.eras.legacy)
      this.legacy = this.eras.legacy.open(this.runtime, this.peer, this.facts);
    return this.legacy;
  }
}
