import type { ProviderChange } from '@rondo/core';

/** Distinct resource URIs one flush carries at most; beyond, a resources list change stands in. */
const MAX_PENDING_URIS = 1000;

/**
 * Passes an upstream's announcements on to the server, coalesced: the changes of one short window
 * go out once each, so an upstream that floods `list_changed` costs one catalog read per window,
 * not one per notification, and what waits is bounded.
 */
export class ChangeRelay {
  private readonly listeners = new Set<(change: ProviderChange) => void>();
  private readonly lists = new Set<'tools' | 'prompts' | 'resources'>();
  private readonly uris = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly windowMs = 50) {}

  /** Adds a listener; returns the function that removes it. */
  on(listener: (change: ProviderChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Queues a change for the next flush. */
  emit(change: ProviderChange): void {
    if (change.kind === 'resource') {
      if (this.uris.size < MAX_PENDING_URIS) this.uris.add(change.uri);
      else this.lists.add('resources');
    } else {
      this.lists.add(change.kind);
    }
    this.timer ??= setTimeout(() => this.flush(), this.windowMs);
  }

  /** Every list changed (a new connection: the upstream may serve another catalog). */
  all(): void {
    for (const kind of ['tools', 'prompts', 'resources'] as const) this.emit({ kind });
  }

  /** Stops: nothing more is delivered. */
  close(): void {
    clearTimeout(this.timer);
    this.listeners.clear();
  }

  private flush(): void {
    this.timer = undefined;
    const changes: ProviderChange[] = [
      ...[...this.lists].map((kind) => ({ kind })),
      ...[...this.uris].map((uri) => ({ kind: 'resource' as const, uri })),
    ];
    this.lists.clear();
    this.uris.clear();
    for (const change of changes) for (const listener of this.listeners) listener(change);
  }
}
