import type { JsonObject } from '@rondo/protocol';

/** How the modern era is served. Every member is optional. */
export interface ModernEraOptions {
  /**
   * Revisions the endpoint serves through other eras (say, the legacy adapter's), listed after the
   * modern ones in `server/discover` and in unsupported-version errors so a client can fall back.
   */
  alsoSupported?: readonly string[];
  /** Extensions announced in `server/discover`, by identifier (`io.modelcontextprotocol/tasks`, say). */
  extensions?: Record<string, JsonObject>;
  /** Experimental capabilities announced in `server/discover`. */
  experimental?: Record<string, JsonObject>;
  /** Announce the `logging` capability (per-request log messages); default true. */
  logging?: boolean;
  /**
   * A `subscriptions/listen` request on which nothing was sent for this long ends with its result
   * (as when the server closes), so the client opens a new one: a forgotten subscription does not
   * hold its stream and its slot for ever. 0 never ends one. Default 5 min.
   */
  listenIdleTimeoutMs?: number;
}

/** The default of {@link ModernEraOptions.listenIdleTimeoutMs}. */
export const DEFAULT_LISTEN_IDLE_TIMEOUT_MS = 5 * 60_000;
