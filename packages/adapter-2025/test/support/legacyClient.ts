import { createEndpoint, type EraAdapter, type RondoServer } from '@rondo/core';
import type { JsonRpcMessage, JsonRpcRequest, JsonRpcResponse } from '@rondo/protocol';
import { expect } from 'vitest';
import { legacyEra, type LegacyEraOptions } from '@rondo/adapter-2025';
import { MemoryConnection, type ExchangeRecord } from '@rondo/test-support/memoryConnection';
import { specMissingReason, wireProblems, type SpecRevision } from './wireSchema.js';

/** Clients opened by the current test; {@link checkAndCloseClients} validates their wire and closes them. */
const opened: LegacyTestClient[] = [];

/** Polls until `probe` returns a value (5 s at most). */
export async function waitFor<T>(probe: () => T | undefined, what = 'a condition'): Promise<T> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export interface OpenOptions {
  protocolVersion?: string;
  capabilities?: Record<string, unknown>;
  era?: LegacyEraOptions;
  modern?: EraAdapter;
}

/** A legacy client driving an endpoint in memory, remembering which method each id asked. */
export class LegacyTestClient {
  readonly memory: MemoryConnection;
  revision: SpecRevision | undefined;
  private readonly methods = new Map<unknown, string>();
  private nextId = 1;
  /** Ids of requests of another era sent on this connection; their answers are not legacy wire. */
  private readonly foreignIds = new Set<unknown>();

  constructor(server: RondoServer, options: OpenOptions = {}) {
    const eras = {
      legacy: legacyEra(options.era),
      ...(options.modern ? { modern: options.modern } : {}),
    };
    this.memory = new MemoryConnection(createEndpoint(server, eras));
    opened.push(this);
  }

  /** Opens a client and runs the handshake (2025-11-25 unless told otherwise). */
  static async open(server: RondoServer, options: OpenOptions = {}): Promise<LegacyTestClient> {
    const client = new LegacyTestClient(server, options);
    await client.call('initialize', {
      protocolVersion: options.protocolVersion ?? '2025-11-25',
      capabilities: options.capabilities ?? {},
      clientInfo: { name: 'legacy-test', version: '1.0.0' },
    });
    client.notify('notifications/initialized');
    return client;
  }

  /** Sends a request and returns its exchange record. */
  send(
    method: string,
    params?: Record<string, unknown>,
    id: string | number = this.nextId++,
  ): ExchangeRecord {
    this.methods.set(id, method);
    const request: JsonRpcRequest = { jsonrpc: '2.0', id, method, ...(params ? { params } : {}) };
    return this.memory.send(request);
  }

  /** Sends a request and waits for its final answer. */
  async request(method: string, params?: Record<string, unknown>): Promise<JsonRpcResponse> {
    return (await this.send(method, params).ended) as JsonRpcResponse;
  }

  /** Sends a request and returns its result; fails the test on an error response. */
  async call(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>> {
    const response = await this.request(method, params);
    if (!('result' in response))
      throw new Error(`${method} failed: ${JSON.stringify(response.error)}`);
    if (method === 'initialize') this.revision = response.result.protocolVersion as SpecRevision;
    return response.result;
  }

  /** Sends a request of another era (a modern one) on the same connection. */
  sendForeign(request: JsonRpcRequest): ExchangeRecord {
    this.foreignIds.add(request.id);
    return this.memory.send(request);
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.memory.send({ jsonrpc: '2.0', method, ...(params ? { params } : {}) });
  }

  /** Answers a server-to-client request. */
  answer(request: JsonRpcMessage, result: Record<string, unknown>): void {
    this.memory.send({ jsonrpc: '2.0', id: (request as JsonRpcRequest).id, result });
  }

  /** Waits for the next server-to-client request with `method` on an exchange, not yet answered. */
  async serverRequest(record: ExchangeRecord, method: string, skip = 0): Promise<JsonRpcRequest> {
    return waitFor(
      () =>
        record.sent.filter((m) => 'id' in m && 'method' in m && m.method === method)[skip] as
          JsonRpcRequest | undefined,
      method,
    );
  }

  wireProblems(): string[] {
    if (!this.revision) return [];
    const legacy = this.memory.written.filter(
      (m) => !('id' in m && !('method' in m) && this.foreignIds.has(m.id)),
    );
    return wireProblems(this.revision, legacy, (id) => this.methods.get(id));
  }
}

/** Validates the wire of every client the test opened, then closes them. */
export function checkAndCloseClients(): void {
  const reason = specMissingReason();
  const clients = opened.splice(0);
  for (const client of clients) client.memory.connection.close();
  if (reason) {
    console.warn(`skipping wire schema validation: ${reason}`);
    return;
  }
  for (const client of clients) expect(client.wireProblems()).toEqual([]);
}
