import type { ProviderChange } from '../contracts/provider.js';

/** A change as the bus delivers it: the change and an id every process sees alike. */
export interface PublishedChange {
  /** Unique per published change, the same in every process that hears it. */
  readonly id: string;
  readonly change: ProviderChange;
}

/**
 * Carries list changes and `resources/updated` between the processes serving one endpoint: a change
 * made in one process is published once and heard by every process (its own included), which tell
 * their own clients (legacy sessions, modern `subscriptions/listen` streams).
 */
export interface ChangeBus {
  /** Publishes a change made in this process. */
  publish(change: ProviderChange): Promise<void>;
  /** Hears every published change, from any process; returns the function that stops. */
  subscribe(listener: (published: PublishedChange) => void): () => void;
}
