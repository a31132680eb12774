import { MetaKey, type JsonObject, type SubscriptionsListenRequestParams } from '@rondo/protocol';
import type { ListenPart, ServerCapabilitySet, ServerChange } from '@rondo/core';
import type { RequestAttachment, RequestCall, WireResult } from '@rondo/core/internal';
import type { ModernServerView } from './serverView.js';

/**
 * `subscriptions/listen`: a long-lived request whose exchange carries list-change and
 * resource-update notifications. It is acknowledged first, every notification is tagged with the
 * listen request's id, only the kinds the client asked for (and the server offers) are sent, and it
 * ends gracefully (a result) when the session closes or nothing was sent on it for the idle limit
 * (`listenIdleTimeoutMs`), silently when the client goes away or cancels.
 */

/** The notification kinds a client may ask for, as the schema's `SubscriptionFilter` has them. */
type SubscriptionFilter = SubscriptionsListenRequestParams['notifications'];

/** Opens a subscription; the promise settles when it ends. */
export async function listen(
  request: RequestCall,
  params: SubscriptionsListenRequestParams,
  view: ModernServerView,
): Promise<WireResult> {
  const honoured = honour(params.notifications, view.capabilityFlags()) as JsonObject;
  // What the server's extensions make of the filter (the Tasks extension's `taskIds`).
  const parts: ListenPart[] = [];
  for (const extension of view.runtime.extensions) {
    const filter = params.notifications as JsonObject;
    const part = await extension.listen?.(filter, request, view.runtime);
    if (part === undefined) continue;
    parts.push(part);
    Object.assign(honoured, part.honoured);
  }
  const tag: JsonObject = { [MetaKey.subscriptionId]: request.id };
  request.send({
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { _meta: tag, notifications: honoured },
  });
  return new Promise((resolve) => {
    const filter = honoured as SubscriptionFilter;
    request.attachment = new Subscription(request, view, filter, parts, tag, resolve);
  });
}

/** One open subscription: it listens to the server's changes and to its request's abort. */
class Subscription implements RequestAttachment {
  private readonly stopListening: () => void;
  private readonly uris: ReadonlySet<string>;
  private readonly stopParts: (() => void)[];
  /** When a notification last went out (`Date.now()`), for the idle limit. */
  private lastSent = Date.now();
  private idleTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly request: RequestCall,
    view: ModernServerView,
    private readonly filter: SubscriptionFilter,
    parts: readonly ListenPart[],
    private readonly tag: JsonObject,
    private readonly settle: (result: WireResult) => void,
  ) {
    this.uris = new Set(filter.resourceSubscriptions ?? []);
    this.stopListening = view.runtime.onChange((change) => this.deliver(change));
    this.stopParts = parts.map((part) =>
      part.start((method, params) => this.send(method, { _meta: this.tag, ...params })),
    );
    request.signal.addEventListener('abort', this, { once: true });
    this.watchIdle(view.listenIdleTimeoutMs);
  }

  /**
   * Ends the subscription gracefully once nothing was sent on it for `idleMs`. One timer per
   * subscription, moved on only when it fires (not per notification), so a busy one costs nothing.
   */
  private watchIdle(idleMs: number): void {
    if (idleMs <= 0) return;
    const check = (): void => {
      const left = this.lastSent + idleMs - Date.now();
      if (left > 0) this.idleTimer = unref(setTimeout(check, left));
      else this.closeGracefully();
    };
    this.idleTimer = unref(setTimeout(check, idleMs));
  }

  private send(method: string, params: JsonObject): void {
    this.lastSent = Date.now();
    this.request.send({ jsonrpc: '2.0', method, params });
  }

  /** The request was aborted (client gone or cancelled): end without an answer. */
  handleEvent(): void {
    clearTimeout(this.idleTimer);
    this.stopListening();
    for (const stop of this.stopParts) stop();
    this.settle({});
  }

  closeGracefully(): void {
    clearTimeout(this.idleTimer);
    this.stopListening();
    for (const stop of this.stopParts) stop();
    this.request.signal.removeEventListener('abort', this);
    this.settle({ _meta: this.tag });
  }

  private deliver(change: ServerChange): void {
    const method = this.methodFor(change);
    if (method === undefined) return;
    const params: JsonObject =
      change.kind === 'resource' ? { _meta: this.tag, uri: change.uri } : { _meta: this.tag };
    this.send(method, params);
  }

  private methodFor(change: ServerChange): string | undefined {
    switch (change.kind) {
      case 'tools':
        return this.filter.toolsListChanged ? 'notifications/tools/list_changed' : undefined;
      case 'prompts':
        return this.filter.promptsListChanged ? 'notifications/prompts/list_changed' : undefined;
      case 'resources':
        return this.filter.resourcesListChanged
          ? 'notifications/resources/list_changed'
          : undefined;
      case 'resource':
        return this.uris.has(change.uri) ? 'notifications/resources/updated' : undefined;
    }
  }
}

/** The part of a filter the server honours: what was asked for and is offered. */
function honour(requested: SubscriptionFilter, offered: ServerCapabilitySet): SubscriptionFilter {
  const honoured: SubscriptionFilter = {};
  if (requested.toolsListChanged && offered.tools && offered.listChanged)
    honoured.toolsListChanged = true;
  if (requested.promptsListChanged && offered.prompts && offered.listChanged)
    honoured.promptsListChanged = true;
  if (requested.resourcesListChanged && offered.resources && offered.listChanged)
    honoured.resourcesListChanged = true;
  if (requested.resourceSubscriptions !== undefined && offered.resources && offered.subscribe) {
    honoured.resourceSubscriptions = requested.resourceSubscriptions;
  }
  return honoured;
}

/** A timer that does not keep a Node process alive (other runtimes' timers have no `unref`). */
function unref(timer: ReturnType<typeof setTimeout>): ReturnType<typeof setTimeout> {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}
