import type { ChangeBus } from './changeBus.js';
import type { EventStore } from './eventStore.js';
import type { SessionRelay } from './sessionRelay.js';
import type { SessionStore } from './sessionStore.js';
import type { UsedStateStore } from './usedStates.js';
import type { RateLimitStore, ResponseCacheStore } from './policyStores.js';

/**
 * Everything the processes serving one endpoint share, so that any request of any session can go
 * to any process and a process can die without losing a session. Given to `createServer({ shared
 * })`; its transports take their parts from there, and an extension may find a store of its own on
 * a member of its name (`@rondo/tasks` reads `tasks`). `@rondo/redis` implements it.
 */
export interface SharedState {
  readonly sessions: SessionStore;
  readonly events: EventStore;
  readonly changes: ChangeBus;
  readonly relay: SessionRelay;
  /** The one-time requestStates accepted (`requestState.oneTime`); without it, per process. */
  readonly usedStates?: UsedStateStore;
  /** Rate-limit counters every process shares (`@rondo/policies` rate limits), when provided. */
  readonly rateLimits?: RateLimitStore;
  /** A response cache every process shares (`@rondo/policies` response caching), when provided. */
  readonly responses?: ResponseCacheStore;
  /** Closes the connections to the shared store. */
  close(): Promise<void>;
}
