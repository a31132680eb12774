import type { Client } from '@rondo/client';
import type { LoggingMessageNotificationParams } from '@rondo/protocol';
import type { ChangeRelay } from './changeRelay.js';

/**
 * Forwards what an upstream announces on `client`: list changes and resource updates to `changes`,
 * log messages to `logTo()`, the one call running if exactly one is (a log message names no call,
 * so it never goes to another caller's). A modern upstream is asked to announce its list changes
 * on a `subscriptions/listen` stream; one that refuses simply announces nothing.
 */
export function forwardAnnouncements(
  client: Client,
  changes: ChangeRelay,
  logTo: () => ((params: LoggingMessageNotificationParams) => void) | undefined,
): void {
  client.on('toolsListChanged', () => changes.emit({ kind: 'tools' }));
  client.on('promptsListChanged', () => changes.emit({ kind: 'prompts' }));
  client.on('resourcesListChanged', () => changes.emit({ kind: 'resources' }));
  client.on('resourceUpdated', ({ uri }) => changes.emit({ kind: 'resource', uri }));
  client.on('log', (params) => logTo()?.(params));
  if (client.era !== 'modern') return;
  const caps = client.capabilities;
  client
    .subscribe({
      toolsListChanged: caps.tools?.listChanged === true,
      promptsListChanged: caps.prompts?.listChanged === true,
      resourcesListChanged: caps.resources?.listChanged === true,
    })
    .catch(() => undefined);
}
