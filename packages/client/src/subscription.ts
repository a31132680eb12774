import type { ClientCore } from './client.js';

/** What a subscription asks to hear about. */
export interface SubscriptionTargets {
  /** Resources whose `resourceUpdated` events to receive. */
  readonly resources?: readonly string[];
  /** List changes to receive (the legacy era sends them without asking). */
  readonly toolsListChanged?: boolean;
  readonly promptsListChanged?: boolean;
  readonly resourcesListChanged?: boolean;
}

/** An open subscription; its events arrive through the client's `on(...)` and `events(...)`. */
export class Subscription {
  private constructor(private readonly closeWith: () => Promise<void>) {}

  /** Opens a subscription in the client's era. */
  static async open(core: ClientCore, targets: SubscriptionTargets): Promise<Subscription> {
    const resources = [...(targets.resources ?? [])];
    if (core.era === 'legacy') {
      for (const uri of resources) await core.request('resources/subscribe', { uri });
      return new Subscription(async () => {
        for (const uri of resources)
          await core.request('resources/unsubscribe', { uri }).catch(() => undefined);
      });
    }
    const notifications: Record<string, unknown> = {};
    if (targets.toolsListChanged) notifications.toolsListChanged = true;
    if (targets.promptsListChanged) notifications.promptsListChanged = true;
    if (targets.resourcesListChanged) notifications.resourcesListChanged = true;
    if (resources.length > 0) notifications.resourceSubscriptions = resources;
    const controller = new AbortController();
    const acknowledged = new Promise<void>((resolve) => {
      const off = core.on('notification', (note) => {
        if (note.method !== 'notifications/subscriptions/acknowledged') return;
        off();
        resolve();
      });
      controller.signal.addEventListener('abort', () => {
        off();
        resolve();
      });
    });
    const stream = core
      .request(
        'subscriptions/listen',
        { notifications },
        { signal: controller.signal, timeoutMs: 0 },
      )
      .catch(() => undefined);
    // The stream is open once the server acknowledged it (or ended it at once).
    await Promise.race([acknowledged, stream]);
    return new Subscription(async () => {
      controller.abort();
      await stream;
    });
  }

  /** Ends the subscription. */
  close(): Promise<void> {
    return this.closeWith();
  }
}
