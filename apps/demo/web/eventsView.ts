import { h } from './dom.js';
import type { EventFeed } from './eventFeed.js';
import {
  describeSubscription,
  EventWatch,
  messageOf,
  type StatusState,
  type Subscription,
} from './eventWatch.js';
import { objectAt, RpcError, textOf, type JsonObject } from './jsonRpc.js';
import type { McpClient } from './mcpClient.js';
import { schemaForm, type SchemaForm } from './schemaForm.js';

/** The extension a server announces in `server/discover` when it serves event types. */
export const EVENTS_EXTENSION = 'io.modelcontextprotocol/events';

/** Where the Events panel draws: its controls, its status line and the feed of occurrences. */
export interface EventsPanelParts {
  controls: HTMLElement;
  status: HTMLElement;
  feed: EventFeed;
}

/** Pages of a poll read in one click when the server says more are waiting. */
const MAX_POLL_PAGES = 10;

/** The modes an event type's descriptor lists (`delivery`). */
function modesOf(type: JsonObject): string[] {
  return Array.isArray(type.delivery) ? type.delivery.map(String) : [];
}

/**
 * The Events panel (the `io.modelcontextprotocol/events` extension): lists the server's event
 * types (`events/list`), reads a subscription's arguments from a form generated from the type's
 * `inputSchema`, and receives occurrences by push (`events/stream`, held open until Stop cancels
 * it) or by poll (`events/poll` from the cursor of the previous poll of the same subscription).
 */
export class EventsPanel {
  private client: McpClient | undefined;
  private types: JsonObject[] = [];
  private watching: EventWatch | undefined;
  /** The cursor of each subscription's last poll, keyed by type and arguments. */
  private readonly cursors = new Map<string, string>();
  private form: SchemaForm | undefined;
  private readonly buttons = {
    watch: h('button', { type: 'button', 'data-testid': 'event-watch' }, 'Watch'),
    stop: h('button', { type: 'button', 'data-testid': 'event-stop', disabled: true }, 'Stop'),
    poll: h('button', { type: 'button', 'data-testid': 'event-poll' }, 'Poll'),
  };
  private readonly picker = h('select', { id: 'event-type', 'data-testid': 'event-type' });
  private readonly about = h('p', { class: 'muted', 'data-testid': 'event-description' });
  private readonly fields = h('div', { class: 'event-fields' });
  private readonly errors = h('div', { class: 'errors', role: 'alert' });

  constructor(private readonly parts: EventsPanelParts) {
    this.buttons.watch.addEventListener('click', () => this.watch());
    this.buttons.stop.addEventListener('click', () => this.stop());
    this.buttons.poll.addEventListener('click', () => void this.poll());
    this.picker.addEventListener('change', () => this.showType());
  }

  /** Shows what a freshly connected server offers: its event types, or why it offers none. */
  async open(client: McpClient, capabilities: JsonObject): Promise<void> {
    this.close();
    this.client = client;
    if (!objectAt(objectAt(capabilities, 'extensions'), EVENTS_EXTENSION)) {
      this.absent(
        `This server does not announce the Events extension (${EVENTS_EXTENSION}) in server/discover. ` +
          'A Rondo server announces it to modern (2026-07-28) clients only: legacy sessions never see it.',
      );
      return;
    }
    try {
      this.types = await this.listTypes(client);
    } catch (failure) {
      return this.absent(`events/list failed: ${messageOf(failure)}`);
    }
    if (this.types.length === 0) return this.absent('The server lists no event types.');
    this.picker.replaceChildren(
      ...this.types.map((type) =>
        h('option', { value: textOf(type.name) }, textOf(type.title, textOf(type.name))),
      ),
    );
    this.parts.controls.replaceChildren(
      h('label', { for: 'event-type' }, 'Event type'),
      this.picker,
      this.about,
      h(
        'form',
        { class: 'card', 'aria-label': 'Subscription arguments', 'data-testid': 'event-form' },
        this.fields,
        this.errors,
        h('div', { class: 'actions' }, this.buttons.watch, this.buttons.stop, this.buttons.poll),
      ),
    );
    this.showType();
    this.setStatus('Pick an event type, then Watch (push) or Poll.', 'idle');
  }

  /** Ends a watch and forgets the server (on disconnect, or before another connection). */
  close(): void {
    this.stop();
    this.client = undefined;
    this.types = [];
    this.cursors.clear();
    this.absent('Connect to list the server’s event types.');
  }

  /** Empties the feed of occurrences (a watch goes on). */
  clearFeed(): void {
    this.parts.feed.clear();
  }

  private absent(reason: string): void {
    this.parts.controls.replaceChildren(
      h('p', { class: 'muted', 'data-testid': 'events-absent' }, reason),
    );
    this.setStatus('', 'idle');
  }

  private async listTypes(client: McpClient): Promise<JsonObject[]> {
    const types: JsonObject[] = [];
    let cursor: unknown;
    do {
      const page = await client.call('events/list', cursor === undefined ? {} : { cursor });
      types.push(...((page.events as JsonObject[] | undefined) ?? []));
      cursor = page.nextCursor;
    } while (typeof cursor === 'string');
    return types;
  }

  private selected(): JsonObject | undefined {
    return this.types.find((type) => type.name === this.picker.value);
  }

  /** Shows the picked type's description and a form for its subscription arguments. */
  private showType(): void {
    const type = this.selected();
    if (!type) return;
    const modes = modesOf(type);
    this.about.textContent = `${textOf(type.description)} Delivery: ${modes.join(', ')}.`;
    this.form = schemaForm(objectAt(type, 'inputSchema') ?? {}, 'event-args');
    this.fields.replaceChildren(this.form.element);
    this.errors.replaceChildren();
    this.buttons.watch.disabled = !modes.includes('push');
    this.buttons.poll.disabled = !modes.includes('poll');
  }

  /** The subscription the form describes, or undefined after showing why it is not valid. */
  private subscription(): Subscription | undefined {
    const type = this.selected();
    const read = this.form?.read();
    if (!type || !read) return undefined;
    if (!read.ok) {
      this.errors.replaceChildren(...read.errors.map((error) => h('div', {}, error)));
      return undefined;
    }
    this.errors.replaceChildren();
    return { name: textOf(type.name), arguments: read.value };
  }

  /** Opens a push stream of the subscription, in place of the one open (if any). */
  private watch(): void {
    const subscription = this.subscription();
    if (!subscription || !this.client) return;
    this.stop();
    const watch: EventWatch = new EventWatch(this.client, subscription, {
      feed: this.parts.feed,
      // A watch replaced by another leaves the status line to the new one.
      status: (text, state) => {
        if (this.watching === watch) this.setStatus(text, state);
      },
    });
    this.watching = watch;
    this.buttons.stop.disabled = false;
    this.setStatus(`Opening a stream of ${describeSubscription(subscription)}…`, 'busy');
    void watch.ended.then(() => {
      if (this.watching !== watch) return;
      this.watching = undefined;
      this.buttons.stop.disabled = true;
    });
  }

  /** Cancels the open stream, if any (`notifications/cancelled`, or closing the HTTP response). */
  private stop(): void {
    this.watching?.stop();
    this.buttons.stop.disabled = true;
  }

  /**
   * Polls the subscription from its last cursor; the first poll of a subscription takes the cursor
   * of now, so the next one answers what happened in between.
   */
  private async poll(): Promise<void> {
    const subscription = this.subscription();
    if (!subscription || !this.client) return;
    const key = JSON.stringify(subscription);
    const what = describeSubscription(subscription);
    let cursor: string | null = this.cursors.get(key) ?? null;
    const first = cursor === null;
    let received = 0;
    this.setStatus(`Polling ${what}…`, 'busy');
    try {
      for (let page = 0; page < MAX_POLL_PAGES; page += 1) {
        const result = await this.client.call('events/poll', { ...subscription, cursor });
        if (result.truncated === true)
          this.parts.feed.note(
            `truncated: some ${subscription.name} occurrences were forgotten before this poll`,
            'truncated',
          );
        for (const occurrence of (result.events as JsonObject[] | undefined) ?? []) {
          this.parts.feed.add(occurrence, 'poll');
          received += 1;
        }
        cursor = textOf(result.cursor) || cursor;
        if (cursor !== null) this.cursors.set(key, cursor);
        if (result.hasMore !== true) break;
      }
      this.setStatus(
        first
          ? `Polled ${what}: the cursor marks now; Poll again to see what happened since.`
          : `Polled ${what}: ${received} new occurrence${received === 1 ? '' : 's'}.`,
        'ok',
      );
    } catch (failure) {
      // A cursor the server refuses (expired, or of a restarted server) is dropped: poll from now.
      if (failure instanceof RpcError && failure.code === -32602) this.cursors.delete(key);
      this.setStatus(`Polling ${what} failed: ${messageOf(failure)}`, 'error');
    }
  }

  private setStatus(text: string, state: StatusState): void {
    this.parts.status.textContent = text;
    this.parts.status.dataset.state = state;
  }
}
