import type { EventFeed } from './eventFeed.js';
import { objectAt, textOf, type JsonObject, type JsonRpcMessage } from './jsonRpc.js';
import type { McpClient } from './mcpClient.js';

/** A subscription: an event type and the arguments the form read for it. */
export interface Subscription {
  name: string;
  arguments: JsonObject;
}

/** How a line of the Events panel's status reads. */
export type StatusState = 'idle' | 'busy' | 'ok' | 'error';

/** Where a watch reports: the feed of occurrences and the panel's status line. */
export interface WatchOutput {
  feed: EventFeed;
  status(text: string, state: StatusState): void;
}

/** `bird_sighted` or `bird_sighted {"bird":"mallard"}`, for status lines. */
export function describeSubscription(subscription: Subscription): string {
  const args = JSON.stringify(subscription.arguments);
  return args === '{}' ? subscription.name : `${subscription.name} ${args}`;
}

/** A failure's words, for a status line. */
export function messageOf(failure: unknown): string {
  return failure instanceof Error ? failure.message : String(failure);
}

/**
 * One push subscription: an `events/stream` request held open from now (sent as it is made; the
 * status line hears of it first at `active`), whose notifications
 * (`active`, `event`, `heartbeat`, `error`, `terminated`) go to the feed and the status line,
 * until {@link EventWatch.stop} cancels it (the channel sends `notifications/cancelled`, or closes
 * the HTTP response) or the server ends it.
 */
export class EventWatch {
  /** Settles once the request is over, however it ended. */
  readonly ended: Promise<void>;
  private readonly cancel = new AbortController();
  private readonly what: string;

  constructor(
    client: McpClient,
    subscription: Subscription,
    private readonly output: WatchOutput,
  ) {
    this.what = describeSubscription(subscription);
    this.ended = this.run(client, subscription);
  }

  /** Cancels the stream. */
  stop(): void {
    this.cancel.abort();
  }

  private async run(client: McpClient, subscription: Subscription): Promise<void> {
    try {
      await client.call(
        'events/stream',
        { ...subscription, cursor: null },
        { onRelated: (message) => this.receive(message), signal: this.cancel.signal },
      );
      this.output.status(`The stream of ${this.what} ended.`, 'idle');
    } catch (failure) {
      if (this.cancel.signal.aborted) this.output.status(`Stopped watching ${this.what}.`, 'idle');
      else this.output.status(`Watching ${this.what} failed: ${messageOf(failure)}`, 'error');
    }
  }

  /** One notification of the stream. */
  private receive(message: JsonRpcMessage): void {
    if (!('method' in message)) return;
    const params = message.params ?? {};
    const { feed } = this.output;
    switch (message.method) {
      case 'notifications/events/active':
        this.output.status(`Watching ${this.what} by push: the stream is open.`, 'ok');
        feed.note(`push stream of ${this.what} open`);
        if (params.truncated === true)
          feed.note('truncated: occurrences before the stream were forgotten', 'truncated');
        return;
      case 'notifications/events/event':
        feed.add(params, 'push');
        return;
      case 'notifications/events/heartbeat':
        this.output.status(
          `Watching ${this.what} by push; last heartbeat ${new Date().toLocaleTimeString()}.`,
          'ok',
        );
        return;
      case 'notifications/events/error':
        feed.note(`error: ${textOf(objectAt(params, 'error')?.message)}`, 'error');
        return;
      case 'notifications/events/terminated':
        feed.note(
          `the server ended the stream: ${textOf(objectAt(params, 'error')?.message)}`,
          'error',
        );
        return;
    }
  }
}
