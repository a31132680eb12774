import type { ExtensionCall, RequestAttachment } from '@rondo/core';
import {
  ErrorCode,
  MetaKey,
  isPlainObject,
  isMcpError,
  type JsonObject,
  type RequestId,
} from '@rondo/protocol';
import { renamedRefusal } from './eventsRelayErrors.js';
import type { RelayCursors, RelayedBinding } from './relayCursors.js';
import { upstreamFailure } from './roundRunner.js';
import type { ProxyEvents } from './upstreamEvents.js';

/** The notifications of a push stream (SEP-3415), by what each says. */
const PUSH = {
  active: 'notifications/events/active',
  event: 'notifications/events/event',
  heartbeat: 'notifications/events/heartbeat',
  error: 'notifications/events/error',
  terminated: 'notifications/events/terminated',
} as const;

/** Where a caller's stream goes: the owning upstream, its name for the type, the cursors' binding. */
export interface StreamRoute {
  readonly events: ProxyEvents;
  readonly upstreamName: string;
  readonly binding: RelayedBinding;
}

/** What a caller's `events/stream` asks of the upstream, its cursor already unwrapped. */
export interface UpstreamStreamRequest {
  readonly cursor: string | null;
  readonly maxAgeMs?: number | undefined;
}

/**
 * One caller's `events/stream` relayed to the upstream that owns its event type: one upstream
 * `events/stream` on the caller's connection for as long as the caller's request lives. Each of the
 * upstream's notifications reaches the caller in order, tagged with the caller's request id, the
 * type named as the caller knows it and every cursor wrapped (see `RelayCursors`). The caller
 * cancelling cancels the upstream request; the upstream refusing before `active` is the caller's
 * error; the upstream's `terminated` ends the caller's request after it; an upstream request that
 * fails once open ends with a `terminated` of the gateway's (`data.reason: 'upstream'`), and the
 * gateway closing ends it with `terminated` (`data.reason: 'shutdown'`), as a server's own would.
 */
export class RelayedEventStream implements RequestAttachment {
  private readonly tag: JsonObject;
  private readonly upstream = new AbortController();
  private chain: Promise<void> = Promise.resolve();
  /** The upstream said `active`: a failure from now on ends the stream instead of refusing it. */
  private active = false;
  /** Nothing more goes to the caller: it cancelled, or a `terminated` went out. */
  private ended = false;
  private terminated = false;

  constructor(
    private readonly call: ExtensionCall,
    private readonly route: StreamRoute,
    private readonly cursors: RelayCursors,
  ) {
    this.tag = { [MetaKey.subscriptionId]: call.id };
  }

  /** Runs the relay; settles with the caller's result when either side ends it. */
  async run(request: UpstreamStreamRequest): Promise<JsonObject> {
    const { events, upstreamName, binding } = this.route;
    const onAbort = (): void => {
      this.ended = true;
      this.upstream.abort();
    };
    if (this.call.signal.aborted) return {};
    this.call.signal.addEventListener('abort', onAbort, { once: true });
    const lease = await events.lease(this.call);
    let upstreamId: RequestId | undefined;
    const off = lease.client.on('notification', ({ method, params }) => {
      if (upstreamId === undefined || !isPlainObject(params)) return;
      if (!isPlainObject(params._meta) || params._meta[MetaKey.subscriptionId] !== upstreamId)
        return;
      if (method === PUSH.active) this.active = true;
      this.enqueue(() => this.relay(method, params));
    });
    this.call.attachment = this;
    try {
      const params: Record<string, unknown> = {
        name: upstreamName,
        arguments: binding.arguments,
        cursor: request.cursor,
      };
      if (request.maxAgeMs !== undefined) params.maxAgeMs = request.maxAgeMs;
      await lease.client.request('events/stream', params, {
        signal: this.upstream.signal,
        timeoutMs: 0,
        onRequestId: (id) => (upstreamId = id),
      });
      await this.chain;
      return this.terminated ? { _meta: this.tag } : {};
    } catch (failure) {
      await this.chain;
      if (this.ended) return this.terminated ? { _meta: this.tag } : {};
      const error = upstreamFailure(events.upstreamName, failure);
      if (!this.active) throw renamedRefusal(error, upstreamName, binding.name);
      this.terminate(
        'upstream',
        `Upstream "${events.upstreamName}" ended the stream: ${error.message}`,
      );
      return { _meta: this.tag };
    } finally {
      off();
      lease.release();
      this.call.attachment = undefined;
      this.call.signal.removeEventListener('abort', onAbort);
    }
  }

  /** The gateway's connection to the caller is closing: end as a server ends its own on shutdown. */
  closeGracefully(): void {
    this.terminate(
      'shutdown',
      'The gateway is shutting down; subscribe again with the last cursor',
    );
    this.upstream.abort();
  }

  /** One upstream notification as the caller gets it. */
  private async relay(method: string, params: Record<string, unknown>): Promise<void> {
    const { _meta: _upstreamTag, ...plain } = params;
    switch (method) {
      case PUSH.active:
        return this.notify(method, {
          cursor: await this.wrapped(plain.cursor),
          truncated: plain.truncated === true,
        });
      case PUSH.heartbeat:
        return this.notify(method, { cursor: await this.wrapped(plain.cursor) });
      case PUSH.event:
        return this.notify(method, {
          ...(plain as JsonObject),
          name: this.route.binding.name,
          cursor: await this.wrapped(plain.cursor),
        });
      case PUSH.error:
        return this.notify(method, { error: plain.error as JsonObject });
      case PUSH.terminated:
        this.notify(method, { error: plain.error as JsonObject });
        this.terminated = true;
        this.ended = true;
        return;
      default:
        // A notification of a later revision of the extension: not relayed until understood.
        return;
    }
  }

  private async wrapped(cursor: unknown): Promise<string | null> {
    return typeof cursor === 'string' ? this.cursors.wrap(cursor, this.route.binding) : null;
  }

  /** Runs `step` after the steps before it; a failure is reported on the stream, which stays open. */
  private enqueue(step: () => Promise<void>): void {
    this.chain = this.chain.then(step).catch((failure: unknown) => {
      const error = isMcpError(failure)
        ? failure
        : upstreamFailure(this.route.events.upstreamName, failure);
      this.notify(PUSH.error, { error: error.toJson() as unknown as JsonObject });
    });
  }

  private terminate(reason: 'upstream' | 'shutdown', message: string): void {
    this.notify(PUSH.terminated, {
      error: { code: ErrorCode.InternalError, message, data: { reason } },
    });
    this.terminated = true;
    this.ended = true;
  }

  private notify(method: string, params: JsonObject): void {
    if (this.ended) return;
    this.call.send({ jsonrpc: '2.0', method, params: { ...params, _meta: this.tag } });
  }
}
