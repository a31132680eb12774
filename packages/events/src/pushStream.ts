import { ErrorCode, type JsonObject } from '@rondo/protocol';
import type { ExtensionCall, RequestAttachment } from '@rondo/core';
import type { EventsHost } from './eventsHost.js';
import type { LoggedOccurrence, LogPosition } from './occurrenceLog.js';
import type { OpenStream } from './streamRegistry.js';
import type { Subscription } from './subscription.js';
import { PUSH, SUBSCRIPTION_ID_META } from './wire.js';

/**
 * One `events/stream` request: `active` with the cursor it starts from (and `truncated` when the
 * replay buffer moved past the request's cursor), the replay after that cursor, then each live
 * occurrence for its arguments, a `heartbeat` with the current cursor every `heartbeatMs`, an
 * `error` for a failure that does not end it, and `terminated` plus its result when the server
 * ends it. A cancelled request (or a client gone) ends it silently. Messages go out in order.
 */
export class PushStream implements OpenStream, RequestAttachment {
  private readonly tag: JsonObject;
  /** The position after the last occurrence looked at: what the next heartbeat's cursor names. */
  private position: LogPosition;
  /** Occurrences that arrived live while the replay was read, delivered after it. */
  private pending: LoggedOccurrence[] | undefined = [];
  private chain: Promise<void> = Promise.resolve();
  private stopFollowing: (() => void) | undefined;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private settle: ((result: JsonObject) => void) | undefined;
  private ended = false;

  constructor(
    private readonly host: EventsHost,
    private readonly subscription: Subscription,
    private readonly call: ExtensionCall,
    start: LogPosition,
  ) {
    this.tag = { [SUBSCRIPTION_ID_META]: call.id };
    this.position = start;
  }

  /** Runs the stream; settles with the request's result when it ends. */
  run(maxAgeMs: number | undefined): Promise<JsonObject> {
    const done = new Promise<JsonObject>((resolve) => (this.settle = resolve));
    const name = this.subscription.type.name;
    this.stopFollowing = this.host.log.follow(name, (occurrence) => this.live(occurrence));
    this.call.attachment = this;
    if (this.call.signal.aborted) this.stop({});
    else this.call.signal.addEventListener('abort', () => this.stop({}), { once: true });
    this.enqueue(() => this.replay(maxAgeMs));
    return done;
  }

  /** The connection is closing: end as on shutdown. */
  closeGracefully(): void {
    this.terminate();
  }

  /** Ends the stream because the server stops serving it. */
  terminate(): void {
    if (this.ended) return;
    this.notify(PUSH.terminated, {
      error: {
        code: ErrorCode.InternalError,
        message: 'The server is shutting down; subscribe again with the last cursor',
        data: { reason: 'shutdown' },
      },
    });
    this.stop({ _meta: this.tag });
  }

  private async replay(maxAgeMs: number | undefined): Promise<void> {
    const type = this.subscription.type;
    let read = await this.host.log.read(type.name, this.position, this.readOptions(maxAgeMs));
    const first = read.occurrences[0];
    const from = first ? { epoch: read.position.epoch, seq: first.seq - 1 } : read.position;
    this.notify(PUSH.active, {
      cursor: await this.host.codec.seal(from, this.subscription.binding),
      truncated: read.truncated,
    });
    for (;;) {
      for (const occurrence of read.occurrences)
        await this.deliver(occurrence, read.position.epoch);
      this.position = read.position;
      if (!read.hasMore || this.ended) break;
      read = await this.host.log.read(type.name, this.position, this.readOptions(maxAgeMs));
    }
    const waiting = this.pending ?? [];
    this.pending = undefined;
    for (const occurrence of waiting) await this.deliverLive(occurrence);
    this.startHeartbeat();
  }

  private readOptions(maxAgeMs: number | undefined) {
    return {
      limit: this.subscription.type.replay.count,
      since: maxAgeMs === undefined ? undefined : this.host.now() - maxAgeMs,
      accept: (occurrence: LoggedOccurrence) => this.subscription.wants(occurrence),
    };
  }

  private live(occurrence: LoggedOccurrence): void {
    if (this.pending) this.pending.push(occurrence);
    else this.enqueue(() => this.deliverLive(occurrence));
  }

  private async deliverLive(occurrence: LoggedOccurrence): Promise<void> {
    if (occurrence.seq <= this.position.seq) return;
    if (this.subscription.wants(occurrence)) await this.deliver(occurrence, this.position.epoch);
    this.position = { epoch: this.position.epoch, seq: occurrence.seq };
  }

  private async deliver(occurrence: LoggedOccurrence, epoch: string): Promise<void> {
    const wire = await this.subscription.wire(occurrence, this.host.codec, epoch);
    this.notify(PUSH.event, wire);
  }

  private startHeartbeat(): void {
    if (this.ended) return;
    this.heartbeat = setInterval(() => {
      this.enqueue(async () => {
        const cursor = await this.host.codec.seal(this.position, this.subscription.binding);
        this.notify(PUSH.heartbeat, { cursor });
      });
    }, this.host.limits.heartbeatMs);
    (this.heartbeat as { unref?: () => void }).unref?.();
  }

  /** Runs `step` after the steps before it; a failure is reported on the stream, which stays open. */
  private enqueue(step: () => Promise<void>): void {
    this.chain = this.chain.then(step).catch((failure: unknown) => {
      const message = failure instanceof Error ? failure.message : String(failure);
      this.notify(PUSH.error, { error: { code: ErrorCode.InternalError, message } });
    });
  }

  private notify(method: string, params: JsonObject): void {
    if (this.ended) return;
    this.call.send({ jsonrpc: '2.0', method, params: { ...params, _meta: this.tag } });
  }

  private stop(result: JsonObject): void {
    if (this.ended) return;
    this.ended = true;
    clearInterval(this.heartbeat);
    this.stopFollowing?.();
    this.call.attachment = undefined;
    this.settle?.(result);
  }
}
