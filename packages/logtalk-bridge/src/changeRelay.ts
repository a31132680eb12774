import type { ProviderChange } from '@rondo/core';
import { parseDescription, type ProviderDescription } from './messages.js';
import type { WorkerChange } from './workerContract.js';

/**
 * Passes the changes workers announce (`mcp_notify/1`) to the server: a list change first
 * replaces the provider's lists with the description the announcing worker sent, so the
 * server's re-read sees them.
 */
export class ChangeRelay {
  private readonly listeners = new Set<(change: ProviderChange) => void>();
  onDescription: ((description: ProviderDescription) => void) | undefined;

  constructor(private readonly warn: (message: string) => void) {}

  listen(listener: (change: ProviderChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The provider was reloaded: its lists are the new description's, and every list changed. */
  replaced(description: ProviderDescription): void {
    this.onDescription?.(description);
    for (const kind of ['tools', 'prompts', 'resources'] as const)
      for (const listener of this.listeners) listener({ kind });
  }

  announce(change: WorkerChange, workerId: number): void {
    let event: ProviderChange;
    if (change.what === 'resource') {
      if (change.uri === undefined)
        return this.warn(`worker ${workerId}: a resource change without uri`);
      event = { kind: 'resource', uri: change.uri };
    } else {
      const described =
        change.description === undefined ? 'no description' : parseDescription(change.description);
      if (typeof described === 'string')
        return this.warn(`worker ${workerId}: ignored a ${change.what} change: ${described}`);
      this.onDescription?.(described);
      event = { kind: change.what };
    }
    for (const listener of this.listeners) listener(event);
  }
}
