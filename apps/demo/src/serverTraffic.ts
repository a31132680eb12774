import { ErrorCode, isMcpError, type Era } from '@rondo/protocol';
import { MissingClientCapabilityError, type McpCall, type Middleware } from '@rondo/core';
import { redactSecrets } from './redact.js';

/** How many calls the demo remembers by default: enough to scroll through, small whatever clients do. */
export const TRAFFIC_CAPACITY = 200;

/** Longest target or error message kept; a client chooses names and URIs, so they are cut. */
const TEXT_LIMIT = 160;

/** One call as the server saw it: a request, or one round of a multi-round request. */
export interface TrafficRecord {
  /** Increases by one per call since the server started; the stream's event id. */
  seq: number;
  method: string;
  /** The tool or prompt name, the resource URI, or what a completion completes. */
  target?: string;
  era: Era;
  revision: string;
  /** 1 for the first call of a request; a round-hook retry counts on. */
  round: number;
  /** The id of who the transport authenticated, if anyone. */
  principal?: string;
  /** `cancelled` when the client gave up (cancelled, or went away) before the answer. */
  outcome: 'ok' | 'error' | 'cancelled';
  /** For `tools/call`, `prompts/get` and `resources/read` that ended well: did the round finish? */
  result?: 'complete' | 'input_required';
  /** The JSON-RPC error code the server answered with. */
  code?: number;
  message?: string;
  /** How long the call took inside the server, in ms (0.1 ms steps). */
  ms: number;
  /** When the call started (ISO 8601). */
  time: string;
}

/** Receives each new record; see {@link ServerTraffic.subscribe}. */
export type TrafficListener = (record: TrafficRecord) => void;

/** What a client wrote, as the view may show it to others: secrets hidden, then cut. */
function cut(text: string): string {
  const shown = redactSecrets(text);
  return shown.length > TEXT_LIMIT ? `${shown.slice(0, TEXT_LIMIT - 1)}…` : shown;
}

/** What a call is about: the name or URI a reader looks for first. */
export function targetOf(call: Pick<McpCall, 'method' | 'params'>): string | undefined {
  const { params } = call;
  if (typeof params.name === 'string') return params.name;
  if (typeof params.uri === 'string') return params.uri;
  const ref = params.ref as { name?: unknown; uri?: unknown } | undefined;
  if (typeof ref?.name === 'string') return ref.name;
  if (typeof ref?.uri === 'string') return ref.uri;
  return undefined;
}

/**
 * The code the client is answered with: an `McpError` keeps its own, a missing client capability
 * is -32021, anything else -32603 (the core's rule for local failures).
 */
function codeOf(failure: unknown): number {
  if (isMcpError(failure)) return failure.code;
  if (failure instanceof MissingClientCapabilityError) return ErrorCode.MissingClientCapability;
  return ErrorCode.InternalError;
}

/**
 * The revision an `initialize` answer settles on. While `initialize` runs nothing is negotiated
 * yet, so the call names the newest legacy revision; the answer's `protocolVersion` is the truth.
 */
function negotiated(call: McpCall, result: unknown): string | undefined {
  if (call.method !== 'initialize' || typeof result !== 'object' || result === null)
    return undefined;
  const version = (result as { protocolVersion?: unknown }).protocolVersion;
  return typeof version === 'string' ? cut(version) : undefined;
}

function roundResultOf(result: unknown): TrafficRecord['result'] {
  if (typeof result !== 'object' || result === null || !('kind' in result)) return undefined;
  const { kind } = result;
  return kind === 'complete' || kind === 'input_required' ? kind : undefined;
}

/**
 * The calls the server handled, newest last, in a ring of fixed size: a middleware records each
 * call (both eras, every transport), the playground reads them over `GET /traffic` and
 * `GET /traffic/stream`. It keeps neither params nor results, only what the traffic view shows,
 * with what looks like a secret (a URI's query values, tokens) hidden: other users may see it.
 */
export class ServerTraffic {
  private readonly ring: (TrafficRecord | undefined)[];
  private next = 0;
  private seq = 0;
  private readonly listeners = new Set<TrafficListener>();

  constructor(readonly capacity: number = TRAFFIC_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`traffic capacity must be a positive integer, got ${capacity}`);
    this.ring = new Array<TrafficRecord | undefined>(capacity);
  }

  /** The middleware to register first (`server.use(traffic.middleware)`), so it times the rest. */
  readonly middleware: Middleware = async (call, next) => {
    const started = performance.now();
    const time = new Date().toISOString();
    const target = targetOf(call);
    const record = (
      end: Pick<TrafficRecord, 'outcome' | 'result' | 'code' | 'message'>,
      revision = call.revision,
    ): void =>
      this.add({
        method: call.method,
        target: target === undefined ? undefined : cut(target),
        era: call.era,
        revision,
        round: call.round,
        principal: call.principal === undefined ? undefined : cut(call.principal.id),
        ...end,
        ms: Math.round((performance.now() - started) * 10) / 10,
        time,
      });
    try {
      const result = await next();
      record({ outcome: 'ok', result: roundResultOf(result) }, negotiated(call, result));
      return result;
    } catch (failure) {
      const message = failure instanceof Error ? failure.message : String(failure);
      if (call.cancellation.aborted) record({ outcome: 'cancelled', message: cut(message) });
      else record({ outcome: 'error', code: codeOf(failure), message: cut(message) });
      throw failure;
    }
  };

  /** How many calls were recorded since the start, including those the ring dropped. */
  get total(): number {
    return this.seq;
  }

  /** The records kept, oldest first; with `after`, only those with a larger `seq`. */
  records(after = 0): TrafficRecord[] {
    const kept: TrafficRecord[] = [];
    for (let offset = 0; offset < this.capacity; offset += 1) {
      const record = this.ring[(this.next + offset) % this.capacity];
      if (record !== undefined && record.seq > after) kept.push(record);
    }
    return kept;
  }

  /** Calls `listener` with each new record until the returned function is called. */
  subscribe(listener: TrafficListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private add(fields: Omit<TrafficRecord, 'seq'>): void {
    const record: TrafficRecord = { seq: ++this.seq, ...dropUndefined(fields) };
    this.ring[this.next] = record;
    this.next = (this.next + 1) % this.capacity;
    for (const listener of this.listeners) {
      // A listener is a viewer; one that fails is dropped and never fails the call itself.
      try {
        listener(record);
      } catch {
        this.listeners.delete(listener);
      }
    }
  }
}

/** The record without its absent fields, so the JSON stays short. */
function dropUndefined<T extends object>(fields: T): T {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as T;
}
