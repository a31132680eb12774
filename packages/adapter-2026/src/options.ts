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
}
