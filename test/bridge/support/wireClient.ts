import type { Endpoint } from '@rondo/core';
import type { JsonRpcRequest } from '@rondo/protocol';
import { MemoryConnection, type ExchangeRecord } from '@rondo/test-support/memoryConnection';
import type { WireMessage } from '../../stdio/support/wire.js';
import { WireValidator } from '@rondo/test-support/specSchemas';

/** A revision the tests speak. */
export type Revision = '2025-06-18' | '2025-11-25' | '2026-07-28';

const validators = new Map<Revision, WireValidator | undefined>();

/** The schema validator of a revision (loaded once; undefined, with a printed reason, without the spec). */
export function validatorFor(revision: Revision): WireValidator | undefined {
  if (!validators.has(revision)) validators.set(revision, WireValidator.load(revision));
  return validators.get(revision);
}

/**
 * A client of one era driving an endpoint in memory (real JSON text both ways). It remembers
 * what it sent, so every message the server wrote can be validated against the revision's schema.
 */
export class WireClient {
  readonly memory: MemoryConnection;
  readonly sent: WireMessage[] = [];
  private nextId = 1;

  private constructor(
    endpoint: Endpoint,
    readonly revision: Revision,
    readonly capabilities: Record<string, unknown>,
  ) {
    this.memory = new MemoryConnection(endpoint);
  }

  /** A modern (2026-07-28) client: no handshake, `_meta` on every request. */
  static modern(endpoint: Endpoint, capabilities: Record<string, unknown> = {}): WireClient {
    return new WireClient(endpoint, '2026-07-28', capabilities);
  }

  /** A legacy client after `initialize` and `notifications/initialized`. */
  static async legacy(
    endpoint: Endpoint,
    revision: '2025-06-18' | '2025-11-25' = '2025-11-25',
    capabilities: Record<string, unknown> = {},
  ): Promise<WireClient> {
    const client = new WireClient(endpoint, revision, capabilities);
    await client.call('initialize', {
      protocolVersion: revision,
      capabilities,
      clientInfo: { name: 'bridge-wire-test', version: '1.0.0' },
    });
    client.memory.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return client;
  }

  get modern(): boolean {
    return this.revision === '2026-07-28';
  }

  /** Sends a request (modern: with `_meta`, merged into the given one) and returns its exchange. */
  send(method: string, params: Record<string, unknown> = {}): ExchangeRecord {
    const id = this.nextId++;
    const withMeta = this.modern
      ? { ...params, _meta: { ...this.meta(), ...(params._meta as object | undefined) } }
      : params;
    const request = { jsonrpc: '2.0', id, method, params: withMeta } as JsonRpcRequest;
    this.sent.push(request);
    return this.memory.send(request);
  }

  /** Sends a request and waits for its response. */
  async request(method: string, params?: Record<string, unknown>): Promise<WireMessage> {
    return (await this.send(method, params).ended) as WireMessage;
  }

  /** Sends a request and returns its result; throws on an error response. */
  async call(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>> {
    const response = await this.request(method, params);
    if (!response.result) throw new Error(`${method} failed: ${JSON.stringify(response.error)}`);
    return response.result;
  }

  /** Waits for the server-to-client request `method` on an exchange (legacy wire). */
  async serverRequest(record: ExchangeRecord, method: string, skip = 0): Promise<WireMessage> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const found = [...record.sent, ...this.memory.peerMessages].filter(
        (m) => 'id' in m && 'method' in m && m.method === method,
      )[skip];
      if (found) return found as WireMessage;
      if (Date.now() > deadline) throw new Error(`no ${method} request arrived`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Answers a server-to-client request. */
  answer(request: WireMessage, result: Record<string, unknown>): void {
    this.memory.send({ jsonrpc: '2.0', id: request.id!, result });
  }

  /** Problems of everything the server wrote, by the revision's schema ([] when the spec is absent). */
  problems(): string[] {
    return validatorFor(this.revision)?.problems(this.memory.written, this.sent) ?? [];
  }

  close(): void {
    this.memory.connection.close();
  }

  private meta(): Record<string, unknown> {
    return {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': this.capabilities,
      'io.modelcontextprotocol/clientInfo': { name: 'bridge-wire-test', version: '1.0.0' },
    };
  }
}
