import type { Era, JsonObject } from '@rondo/protocol';
import {
  ConfigurationError,
  type Extension,
  type ExtensionHost,
  type ExtensionMethod,
  type ProviderRegistry,
  type RequestStateOptions,
  type SharedState,
} from '@rondo/core';
import { runtimeOfHost } from '@rondo/core/internal';
import { CursorCodec } from './cursors.js';
import { EventPayloadError, UnknownEventTypeError } from './errors.js';
import type { EventsHost, EventsLimits } from './eventsHost.js';
import { EventType, type EventDefinition } from './eventType.js';
import { MemoryOccurrenceLog } from './memoryOccurrenceLog.js';
import { eventsMethods } from './methods.js';
import type { OccurrenceLog } from './occurrenceLog.js';
import { StreamRegistry } from './streamRegistry.js';
import { WebhookDeliverer } from './webhookDeliverer.js';
import { DEFAULT_WEBHOOK_LIMITS, type WebhookLimits } from './webhookLimits.js';
import { MemoryWebhookStore, type WebhookStore } from './webhookStore.js';
import type { WebhookHost } from './webhookSubscriptions.js';
import { EVENTS_EXTENSION } from './wire.js';

/** How webhook subscriptions (`events/subscribe`) are kept and delivered. */
export interface WebhookOptions extends Partial<WebhookLimits> {
  /**
   * Where subscriptions and delivery claims live. Default: the webhook store of the server's
   * shared state when it keeps one, else a {@link MemoryWebhookStore}.
   */
  readonly store?: WebhookStore;
  /**
   * Development only: accept callbacks on loopback and private addresses (https is still required).
   * Default false: a callback whose host resolves to any non-public address is refused.
   */
  readonly allowPrivateCallbacks?: boolean;
  /** Certificate authorities callbacks are checked against instead of Node's (default: Node's). */
  readonly ca?: string | Buffer | readonly (string | Buffer)[];
}

/** How the extension serves its event types. */
export interface EventsOptions {
  /**
   * Where occurrences are kept for replay. Default: the occurrence log of the server's shared
   * state when it keeps one (`@rondo/redis`'s, see {@link SharedEventState}), else a
   * {@link MemoryOccurrenceLog} of this process.
   */
  readonly log?: OccurrenceLog;
  /**
   * How cursors are sealed: the key ring and `ttlMs` (default 7 days) of core's request-state
   * sealer. Processes that should resume each other's cursors share `keys`; without keys each
   * process draws a random one.
   */
  readonly cursors?: RequestStateOptions;
  /** Events one `events/poll` answers without `maxEvents` (default 100; at most 1,000 whatever is asked). */
  readonly pollEvents?: number;
  /** The `nextPollMs` a poll answers when nothing more waits (default 5,000). */
  readonly nextPollMs?: number;
  /** How often an open stream sends `notifications/events/heartbeat` (default 25,000 ms). */
  readonly heartbeatMs?: number;
  /** Open `events/stream` requests of one client (default 16; 0: no cap). */
  readonly maxStreamsPerClient?: number;
  /** The clock (ms since the epoch), for timestamps and ages. */
  readonly now?: () => number;
  /** Webhook delivery: its store, bounds and callback rules. */
  readonly webhooks?: WebhookOptions;
}

/** What `emit` may say about an occurrence besides its data. */
export interface EmitOptions {
  /**
   * The subscription arguments the occurrence is for: a subscription receives it when every member
   * here that its arguments name is equal there. Absent: every subscription of the type.
   */
  readonly match?: JsonObject;
  /** The occurrence's id (clients deduplicate on it): the upstream's stable id when it has one. */
  readonly eventId?: string;
}

/**
 * A shared state that keeps event occurrences and webhook subscriptions too, as `@rondo/redis`'s
 * does (`createServer({ shared })`): an `events()` extension the server uses keeps its occurrences
 * and subscriptions there unless its options name others, so every replica serves one log.
 */
export interface SharedEventState extends SharedState {
  readonly occurrences: OccurrenceLog;
  readonly webhooks: WebhookStore;
}

/** Defaults of {@link EventsOptions}. */
export const DEFAULT_EVENTS_LIMITS: EventsLimits = {
  pollEvents: 100,
  nextPollMs: 5_000,
  heartbeatMs: 25_000,
  maxStreamsPerClient: 16,
};

/**
 * The Events extension (`io.modelcontextprotocol/events`, SEP-3415) of one server, on the
 * 2026-07-28 wire only: declare event types with {@link ServerEvents.event}, `server.use(...)` it, and raise
 * occurrences with {@link ServerEvents.emit}; clients list the types (`events/list`), poll them with sealed
 * cursors (`events/poll`), hold a push stream (`events/stream`) or have signed deliveries POSTed to an
 * https callback (`events/subscribe`).
 */
export class ServerEvents implements Extension {
  readonly id = EVENTS_EXTENSION;
  readonly methods: Readonly<Record<string, ExtensionMethod>>;
  private readonly types = new Map<string, EventType>();
  private readonly host: Mutable<EventsHost>;
  private readonly webhooks: Mutable<WebhookHost>;
  private sharedStores = false;

  constructor(private readonly options: EventsOptions = {}) {
    const limits: EventsLimits = {
      pollEvents: options.pollEvents ?? DEFAULT_EVENTS_LIMITS.pollEvents,
      nextPollMs: options.nextPollMs ?? DEFAULT_EVENTS_LIMITS.nextPollMs,
      heartbeatMs: options.heartbeatMs ?? DEFAULT_EVENTS_LIMITS.heartbeatMs,
      maxStreamsPerClient: options.maxStreamsPerClient ?? DEFAULT_EVENTS_LIMITS.maxStreamsPerClient,
    };
    if (!(limits.heartbeatMs > 0))
      throw new ConfigurationError('events: heartbeatMs must be a positive number of ms');
    const now = options.now ?? Date.now;
    this.host = {
      types: this.types,
      log: options.log ?? new MemoryOccurrenceLog(now),
      codec: new CursorCodec(options.cursors),
      streams: new StreamRegistry(limits.maxStreamsPerClient),
      limits,
      now,
    };
    this.webhooks = webhookHost(this.host, options.webhooks ?? {});
    this.methods = eventsMethods(this.host, this.webhooks);
  }

  /**
   * Keeps occurrences and subscriptions in the server's shared state when it keeps them (see
   * {@link SharedEventState}) and the options name no log or store of their own: use the
   * extension before emitting, since what the memory log held until then stays there.
   */
  attach(_server: ProviderRegistry, host: ExtensionHost): void {
    const shared = runtimeOfHost(host).shared;
    if (this.sharedStores || !isSharedEventState(shared)) return;
    this.sharedStores = true;
    if (this.options.log === undefined) this.host.log = shared.occurrences;
    if (this.options.webhooks?.store === undefined) this.webhooks.store = shared.webhooks;
    // The deliverer follows the log and claims in the store it was made with: made again.
    this.webhooks.deliverer.close();
    this.webhooks.deliverer = delivererOf(this.host, this.webhooks, this.options.webhooks ?? {});
    for (const type of this.types.values())
      if (type.modes.includes('webhook')) this.webhooks.deliverer.follow(type.name);
  }

  /** Announced on the modern wire only; a legacy caller never sees the extension. */
  settings(era: Era): JsonObject | undefined {
    return era === 'modern' ? {} : undefined;
  }

  /** Declares an event type; a bad name, schema, mode or replay bound throws `ConfigurationError`. */
  event(name: string, definition: EventDefinition): this {
    if (this.types.has(name))
      throw new ConfigurationError(`the event type "${name}" is declared already`);
    const type = new EventType(name, definition);
    this.types.set(name, type);
    if (type.modes.includes('webhook')) this.webhooks.deliverer.follow(name);
    return this;
  }

  /**
   * Raises one occurrence of `name`: checked against its payload schema, stored in the type's
   * replay buffer and delivered to every open stream whose arguments match. Resolves with the
   * occurrence's id. Throws `UnknownEventTypeError` or `EventPayloadError`.
   */
  async emit(name: string, data: JsonObject, options: EmitOptions = {}): Promise<string> {
    const type = this.types.get(name);
    if (type === undefined) throw new UnknownEventTypeError(name);
    const checked = await type.payload(data);
    if (!checked.ok) throw new EventPayloadError(name, checked.message);
    const eventId = options.eventId ?? `evt_${crypto.randomUUID()}`;
    const occurrence = { eventId, at: this.host.now(), data: checked.value as JsonObject };
    await this.host.log.append(
      name,
      options.match === undefined ? occurrence : { ...occurrence, match: options.match },
      type.replay,
    );
    return eventId;
  }

  /** Ends every open stream with `notifications/events/terminated` and its result. */
  async close(): Promise<void> {
    this.host.streams.terminateAll();
    this.webhooks.deliverer.close();
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function isSharedEventState(shared: SharedState | undefined): shared is SharedEventState {
  return shared !== undefined && 'occurrences' in shared && 'webhooks' in shared;
}

function webhookHost(host: EventsHost, options: WebhookOptions): Mutable<WebhookHost> {
  const limits: WebhookLimits = { ...DEFAULT_WEBHOOK_LIMITS };
  for (const key of Object.keys(limits) as (keyof WebhookLimits)[]) {
    const value = options[key] ?? limits[key];
    if (!Number.isInteger(value) || value < 1)
      throw new ConfigurationError(`events: webhooks.${key} must be a positive integer`);
    (limits as Record<keyof WebhookLimits, number>)[key] = value;
  }
  const store = options.store ?? new MemoryWebhookStore();
  const allowPrivateCallbacks = options.allowPrivateCallbacks ?? false;
  const partial = { store, limits, allowPrivateCallbacks };
  return { ...partial, deliverer: delivererOf(host, partial, options) };
}

function delivererOf(
  host: EventsHost,
  webhooks: Pick<WebhookHost, 'store' | 'limits' | 'allowPrivateCallbacks'>,
  options: WebhookOptions,
): WebhookDeliverer {
  return new WebhookDeliverer({
    log: host.log,
    store: webhooks.store,
    codec: host.codec,
    limits: webhooks.limits,
    allowPrivateCallbacks: webhooks.allowPrivateCallbacks,
    ca: options.ca,
    now: host.now,
  });
}

/** The Events extension for `server.use(...)`; see {@link ServerEvents}. */
export function events(options: EventsOptions = {}): ServerEvents {
  return new ServerEvents(options);
}
