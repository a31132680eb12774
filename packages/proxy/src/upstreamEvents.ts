import type { Client, EventTypeDescriptor, PollRequest, PollResult } from '@rondo/client';
import type { HandlerContext } from '@rondo/core';
import {
  DEFAULT_MAX_CATALOG_BYTES,
  readWithinBudget,
  type CatalogLimits,
} from './catalogBudget.js';
import type { Gate } from './gate.js';
import type { UpstreamLease } from './linkPool.js';
import { NameMap, type NameRules } from './names.js';
import { upstreamFailure } from './roundRunner.js';
import type { UpstreamConnections } from './upstreamConnections.js';

/** The delivery modes a gateway may relay (its webhooks it delivers itself, fed by push). */
const RELAYED_MODES: ReadonlySet<string> = new Set(['poll', 'push', 'webhook']);

/** A list read for an unknown name happens at most this often (ms): a guessed name costs no flood. */
export const EVENT_TYPES_REREAD_MS = 1000;

/** The proxy's parts an {@link UpstreamEvents} asks through. */
export interface EventsServices {
  readonly upstreamName: string;
  /** The upstream's concurrency limit: a poll takes a slot like a call (a stream does not). */
  readonly gate: Gate;
  /** The deadline of a poll's answer (ms, 0 for none). */
  readonly timeoutMs: number;
}

/** The proxy's connections: the catalog's, and the one a caller's request runs on. */
export type EventsConnections = Pick<UpstreamConnections, 'primary' | 'lease'>;

/** What a gateway sees of a proxy's upstream event types (`ProxyProvider.events`). */
export interface ProxyEvents {
  /** The entry's name (what wrapped cursors are bound to). */
  readonly upstreamName: string;
  /** Whether the connected upstream declares the Events extension. */
  readonly declared: boolean;
  /** The upstream's event types as last read: named as the entry's tools, with the modes it offers. */
  readonly listed: readonly EventTypeDescriptor[];
  /** Reads the upstream's event types again (none when it does not declare the extension). */
  refresh(): Promise<void>;
  /**
   * The upstream's name of the type listed as `exposed`; when none was, the list is read again
   * first (at most once a second), so a caller resuming with a cursor need not list first.
   */
  resolve(exposed: string): Promise<string | undefined>;
  /** One `events/poll` of the upstream, in a slot of its gate, on the caller's connection. */
  poll(request: PollRequest, ctx: HandlerContext): Promise<PollResult>;
  /** The connection a caller's stream runs on; release it when the stream ends. */
  lease(ctx: HandlerContext): Promise<UpstreamLease>;
}

/**
 * An upstream's event types (the Events extension, `io.modelcontextprotocol/events`) as a proxy
 * relays them: its `events/list` read within the catalog budget, each type renamed by the entry's
 * {@link NameRules}, those offering neither poll nor push left out, and its polls asked on the
 * connection a caller's calls run on.
 */
export class UpstreamEvents implements ProxyEvents {
  private readonly names: NameMap;
  private entries: readonly EventTypeDescriptor[] = [];
  private reading: Promise<void> | undefined;
  private readAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly services: EventsServices,
    private readonly connections: EventsConnections,
    /** The entry's naming rules (event types are named as its tools are) and its list budget. */
    private readonly rules: NameRules & CatalogLimits,
    private readonly warn: (message: string) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.names = new NameMap(rules);
  }

  get upstreamName(): string {
    return this.services.upstreamName;
  }

  get declared(): boolean {
    return this.connections.primary.connected?.serverEvents.available === true;
  }

  get listed(): readonly EventTypeDescriptor[] {
    return this.entries;
  }

  /** Reads the list again; reads asked while one runs share it. */
  refresh(): Promise<void> {
    this.reading ??= this.read().finally(() => (this.reading = undefined));
    return this.reading;
  }

  async resolve(exposed: string): Promise<string | undefined> {
    const known = this.names.upstream(exposed);
    if (known !== undefined || !this.declared) return known;
    // A read under way may bring the name: a request made beside the one that started it waits.
    if (this.reading !== undefined) {
      await this.reading;
      return this.names.upstream(exposed);
    }
    if (this.now() - this.readAt < EVENT_TYPES_REREAD_MS) return undefined;
    await this.refresh();
    return this.names.upstream(exposed);
  }

  async poll(request: PollRequest, ctx: HandlerContext): Promise<PollResult> {
    const { gate, upstreamName, timeoutMs } = this.services;
    try {
      return await gate.run(ctx.cancellation, async () => {
        const lease = await this.lease(ctx);
        try {
          return await lease.client.serverEvents.poll(request, {
            cancellation: ctx.cancellation,
            timeoutMs,
          });
        } finally {
          lease.release();
        }
      });
    } catch (error) {
      throw upstreamFailure(upstreamName, error);
    }
  }

  lease(ctx: HandlerContext): Promise<UpstreamLease> {
    return this.connections.lease(ctx);
  }

  private async read(): Promise<void> {
    const client = this.connections.primary.connected;
    this.readAt = this.now();
    if (client === undefined || !client.serverEvents.available) {
      this.entries = this.names.learn([]);
      return;
    }
    try {
      this.entries = this.names.learn(await this.readList(client));
    } catch (failure) {
      this.warn(`event types could not be read: ${(failure as Error).message}`);
    }
  }

  /** The upstream's types within the budget, each with only the modes a gateway relays. */
  private async readList(client: Client): Promise<EventTypeDescriptor[]> {
    const budget = this.rules.maxCatalogBytes ?? DEFAULT_MAX_CATALOG_BYTES;
    const listed = await readWithinBudget(
      'event types',
      async (cursor) => {
        const page = await client.serverEvents.list(cursor);
        return { items: page.events, nextCursor: page.nextCursor };
      },
      budget,
      this.warn,
    );
    const relayed: EventTypeDescriptor[] = [];
    for (const type of listed) {
      const delivery = type.delivery.filter((mode) => RELAYED_MODES.has(mode));
      if (delivery.length > 0) relayed.push({ ...type, delivery });
    }
    return relayed;
  }
}
