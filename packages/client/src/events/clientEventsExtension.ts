import { isPlainObject } from '@rondo/protocol';
import type { ClientCore } from '../client.js';
import { NotDeclaredByServerError, ProtocolViolationError } from '../errors.js';
import { walkPages } from '../pagination.js';
import type { CallOptions } from '../rpc.js';
import { EventStream, type EventStreamOptions } from './eventStream.js';
import {
  EVENTS_EXTENSION,
  checkDescriptor,
  checkPollResult,
  type EventSubscription,
  type EventTypeDescriptor,
  type EventTypesPage,
  type PollResult,
} from './eventWire.js';
import {
  checkSubscribeResult,
  type WebhookSubscribeRequest,
  type WebhookSubscription,
  type WebhookUnsubscribeRequest,
} from './webhookWire.js';

/** What one `events/poll` asks besides the subscription. */
export interface PollRequest extends EventSubscription {
  /** The most occurrences to answer (the server caps it). */
  readonly maxEvents?: number;
}

/** The extension declared on each events request, so the server knows the client speaks it. */
const DECLARED = { extensions: { [EVENTS_EXTENSION]: {} } };

/**
 * The Events extension (`io.modelcontextprotocol/events`, SEP-3415) on a connected client: the
 * event types a server offers, polling them with cursors, push streams that resume after a
 * disconnect, and webhook subscriptions. Every answer is checked against the extension's shapes.
 *
 * ```ts
 * const start = await client.serverEvents.poll({ name: 'build_finished', cursor: null });
 * const stream = client.serverEvents.stream({ name: 'build_finished', cursor: start.cursor });
 * for await (const event of stream)
 *   console.log(event.data);
 * ```
 */
export class ClientEventsExtension {
  constructor(private readonly core: ClientCore) {}

  /** Whether the server declares the extension (events requests are sent only then). */
  get available(): boolean {
    const extensions = (this.core.capabilities as { extensions?: unknown }).extensions;
    return isPlainObject(extensions) && isPlainObject(extensions[EVENTS_EXTENSION]);
  }

  /** One page of `events/list`; descriptors that do not fit are left out and reported as `violation` events. */
  async list(cursor?: string, options?: CallOptions): Promise<EventTypesPage> {
    this.require('events/list');
    const result = await this.core.request(
      'events/list',
      cursor === undefined ? {} : { cursor },
      options,
      DECLARED,
    );
    if (!Array.isArray(result.events))
      throw new ProtocolViolationError('events/list: the result has no events array');
    const events: EventTypeDescriptor[] = [];
    for (const value of result.events) {
      const checked = checkDescriptor(value);
      if (checked.ok) events.push(checked.descriptor);
      else
        this.core.events.emit(
          'violation',
          new ProtocolViolationError(`events/list: a descriptor left out (${checked.reason})`),
        );
    }
    const page: EventTypesPage = { events };
    return typeof result.nextCursor === 'string'
      ? { ...page, nextCursor: result.nextCursor }
      : page;
  }

  /** Every event type, walking all pages. */
  listAll(options?: CallOptions): Promise<EventTypeDescriptor[]> {
    return walkPages((cursor) => this.list(cursor, options), 'events');
  }

  /**
   * One `events/poll`: with `cursor: null` (or none) the server answers no events and the cursor of
   * now; with a cursor, what happened after it. Keep the answer's cursor for the next poll.
   */
  async poll(request: PollRequest, options?: CallOptions): Promise<PollResult> {
    this.require('events/poll');
    const params: Record<string, unknown> = {
      name: request.name,
      arguments: request.arguments ?? {},
      cursor: request.cursor ?? null,
    };
    if (request.maxEvents !== undefined) params.maxEvents = request.maxEvents;
    if (request.maxAgeMs !== undefined) params.maxAgeMs = request.maxAgeMs;
    const result = await this.core.request('events/poll', params, options, DECLARED);
    const checked = checkPollResult(result);
    return {
      events: checked.events,
      cursor: checked.cursor,
      truncated: checked.truncated,
      hasMore: checked.hasMore,
      nextPollMs: checked.nextPollMs,
    };
  }

  /**
   * Opens an `events/stream` push subscription: iterate it for occurrences, `close()` it to stop.
   * It resumes from its newest cursor when the request ends early (see {@link EventStream}).
   */
  stream(subscription: EventSubscription, options?: EventStreamOptions): EventStream {
    this.require('events/stream');
    return new EventStream(this.core, subscription, options);
  }

  /**
   * Creates a webhook subscription (`events/subscribe`), or refreshes it: the same request again
   * (type, arguments, URL) before `refreshBefore` keeps deliveries coming. Check each delivery with
   * `verifyWebhookDelivery(secret, headers, rawBody)`. The server needs an authenticated caller.
   */
  async subscribe(
    request: WebhookSubscribeRequest,
    options?: CallOptions,
  ): Promise<WebhookSubscription> {
    this.require('events/subscribe');
    const params: Record<string, unknown> = {
      name: request.name,
      arguments: request.arguments ?? {},
      delivery: { mode: 'webhook', url: request.url, secret: request.secret },
      cursor: request.cursor ?? null,
    };
    if (request.ttlMs !== undefined) params.ttlMs = request.ttlMs;
    const result = await this.core.request('events/subscribe', params, options, DECLARED);
    return checkSubscribeResult(result);
  }

  /** Ends a webhook subscription (`events/unsubscribe`); deliveries waiting for it are dropped. */
  async unsubscribe(request: WebhookUnsubscribeRequest, options?: CallOptions): Promise<void> {
    this.require('events/unsubscribe');
    await this.core.request(
      'events/unsubscribe',
      {
        name: request.name,
        arguments: request.arguments ?? {},
        delivery: { mode: 'webhook', url: request.url },
      },
      options,
      DECLARED,
    );
  }

  private require(method: string): void {
    if (!this.available)
      throw new NotDeclaredByServerError(method, `the ${EVENTS_EXTENSION} extension`);
  }
}
