import { expect } from 'vitest';
import type { JsonRpcMessage, JsonRpcResponse, RequestId } from '@rondo/protocol';
import { createEndpoint, type Disposition, type Endpoint, type RondoServer } from '@rondo/core';
import { MemoryConnection, type ExchangeRecord } from '@rondo/test-support/memoryConnection';
import { modernEra, type ModernEraOptions } from '../../src/index.js';
import { specAvailable, wireViolations } from './wireSchema.js';

/** JSON the server wrote, read by path in assertions (its shape is checked by the schema, not the compiler). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions read wire JSON by path
export type WireJson = any;

/** The protocol version the tests speak. */
export const VERSION = '2026-07-28';

/** Everything a conformant client declares. */
export const ALL_CAPABILITIES = { elicitation: {}, sampling: {}, roots: {} };

/** A request `_meta` with the required keys (and any extra ones). */
export function meta(
  capabilities: object = ALL_CAPABILITIES,
  extra: object = {},
): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': VERSION,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'adapter-test', version: '1.0.0' },
    ...extra,
  };
}

/** The standard headers an HTTP client sends for a request. */
export function standardHeaders(method: string, name?: string): Record<string, string> {
  const headers: Record<string, string> = { 'mcp-protocol-version': VERSION, 'mcp-method': method };
  if (name !== undefined) headers['mcp-name'] = name;
  return headers;
}

export interface CallOptions {
  /** The request's whole `_meta` (default: {@link meta} with every capability). */
  meta?: Record<string, unknown> | undefined;
  /** Leave `_meta` out entirely. */
  noMeta?: boolean;
  headers?: Record<string, string>;
  id?: RequestId;
}

/**
 * A modern client over a {@link MemoryConnection}: it sends requests with `_meta`, remembers which
 * method each id asked, and checks every message the server wrote against the 2026 schema.
 */
export class ModernClient {
  readonly memory: MemoryConnection;
  readonly endpoint: Endpoint;
  private readonly methods = new Map<RequestId, string>();
  private nextId = 1;

  /** What the server said became of the last request sent with {@link call}. */
  lastDisposition: Disposition | undefined;

  constructor(server: RondoServer, options?: ModernEraOptions) {
    this.endpoint = createEndpoint(server, { modern: modernEra(options) });
    this.memory = new MemoryConnection(this.endpoint);
  }

  /** Sends a request and returns its exchange record (for streams and cancellation). */
  open(
    method: string,
    params: Record<string, unknown> = {},
    options: CallOptions = {},
  ): ExchangeRecord & { id: RequestId } {
    const id = options.id ?? this.nextId++;
    this.methods.set(id, method);
    const body = options.noMeta ? params : { ...params, _meta: options.meta ?? meta() };
    const record = this.memory.send({ jsonrpc: '2.0', id, method, params: body }, options.headers);
    return Object.assign(record, { id });
  }

  /** Sends a request and waits for its final answer. */
  async call(
    method: string,
    params: Record<string, unknown> = {},
    options: CallOptions = {},
  ): Promise<JsonRpcResponse> {
    const record = this.open(method, params, options);
    const answer = (await record.ended) as JsonRpcResponse;
    this.lastDisposition = record.disposition;
    return answer;
  }

  /** Sends a request and returns its result, failing on an error answer. */
  async result(
    method: string,
    params: Record<string, unknown> = {},
    options: CallOptions = {},
  ): Promise<Record<string, WireJson>> {
    const answer = await this.call(method, params, options);
    if (!('result' in answer)) throw new Error(`${method} failed: ${JSON.stringify(answer)}`);
    return answer.result;
  }

  /** Sends a request and returns its error, failing on a result. */
  async error(
    method: string,
    params: Record<string, unknown> = {},
    options: CallOptions = {},
  ): Promise<{ code: number; message: string; data?: WireJson }> {
    const answer = await this.call(method, params, options);
    if (!('error' in answer)) throw new Error(`${method} did not fail: ${JSON.stringify(answer)}`);
    return answer.error;
  }

  /** Sends a notification. */
  notify(method: string, params: Record<string, unknown>): void {
    this.memory.send({ jsonrpc: '2.0', method, params });
  }

  /** Every message the server wrote so far. */
  get written(): readonly JsonRpcMessage[] {
    return this.memory.written;
  }

  /** Asserts that every message the server wrote validates against the 2026-07-28 schema. */
  expectValidWire(): void {
    if (!specAvailable) return;
    expect(wireViolations(this.memory.written, (id) => this.methods.get(id))).toEqual([]);
  }
}
