import { MetaKey, MODERN_REVISIONS, type JsonObject } from '@rondo/protocol';
import type { CachePolicy, EndpointFacts, ServerCapabilitySet } from '@rondo/core';
import {
  CatalogMemo,
  extensionSettings,
  type RequiredCapability,
  type WireResult,
  type Catalog,
  type ServerRuntime,
} from '@rondo/core/internal';
import { DEFAULT_LISTEN_IDLE_TIMEOUT_MS, type ModernEraOptions } from './options.js';

/**
 * What the modern era derives from one server, built once per server rather than per request:
 * the serverInfo `_meta` every result carries, the versions accepted and advertised, and the
 * capabilities (recomputed only when the server's catalog changes).
 */
export class ModernServerView {
  readonly accepted: ReadonlySet<string> = new Set<string>(MODERN_REVISIONS);
  readonly advertised: readonly string[];
  /** The `_meta` of every result, shared by all results that have no `_meta` of their own. */
  readonly resultMeta: JsonObject;
  /** Finished list pages, by method, cache policy and cursor, until the catalog changes. */
  readonly lists = new CatalogMemo<WireResult>();
  private capabilitiesOf: Catalog | undefined;
  private capabilitySet: ServerCapabilitySet | undefined;
  private capabilityWire: JsonObject = {};
  /** See {@link ModernEraOptions.listenIdleTimeoutMs}; 0 for never. */
  readonly listenIdleTimeoutMs: number;

  constructor(
    readonly runtime: ServerRuntime,
    private readonly options: ModernEraOptions,
    endpoint: EndpointFacts,
  ) {
    // Every revision the endpoint serves, so a client can fall back to another era's.
    const revisions = [
      ...MODERN_REVISIONS,
      ...endpoint.revisions,
      ...(options.alsoSupported ?? []),
    ];
    this.advertised = [...new Set(revisions)];
    this.resultMeta = Object.freeze({ [MetaKey.serverInfo]: implementationOf(runtime) });
    this.listenIdleTimeoutMs = options.listenIdleTimeoutMs ?? DEFAULT_LISTEN_IDLE_TIMEOUT_MS;
  }

  /** The capabilities as `server/discover` announces them. */
  capabilities(): JsonObject {
    this.refreshCapabilities();
    return this.capabilityWire;
  }

  /** The capability flags of the server's providers. */
  capabilityFlags(): ServerCapabilitySet {
    this.refreshCapabilities();
    return this.capabilitySet as ServerCapabilitySet;
  }

  /** True when a method family's capability is offered (discover and the table agree). */
  offers(capability: RequiredCapability): boolean {
    return this.capabilityFlags()[capability];
  }

  /** Adds what every modern result carries: `resultType` (complete unless set) and the serverInfo `_meta`. */
  finish(result: WireResult): WireResult {
    const own = result._meta;
    // Already finished (a cached list page, frozen): nothing to add.
    if (own === this.resultMeta && result.resultType !== undefined) return result;
    if (result.resultType === undefined) result.resultType = 'complete';
    result._meta =
      own === undefined ? this.resultMeta : { ...(own as JsonObject), ...this.resultMeta };
    return result;
  }

  private refreshCapabilities(): void {
    const catalog = this.runtime.catalog;
    if (catalog === this.capabilitiesOf) return;
    const flags = this.runtime.capabilities();
    const wire: JsonObject = {};
    if (flags.tools) wire.tools = { listChanged: flags.listChanged };
    if (flags.prompts) wire.prompts = { listChanged: flags.listChanged };
    if (flags.resources)
      wire.resources = { listChanged: flags.listChanged, subscribe: flags.subscribe };
    if (flags.completions) wire.completions = {};
    if (this.options.logging !== false) wire.logging = {};
    // Settings an app passes to the era win over an extension's own.
    const extensions: Record<string, JsonObject> = {
      ...extensionSettings(this.runtime.extensions, 'modern', this.runtime),
      ...this.options.extensions,
    };
    if (Object.keys(extensions).length > 0) wire.extensions = extensions;
    if (this.options.experimental) wire.experimental = this.options.experimental;
    this.capabilitiesOf = catalog;
    this.capabilitySet = flags;
    this.capabilityWire = wire;
  }
}

/** Copies a cache policy onto a result. */
export function withCachePolicy(result: WireResult, policy: CachePolicy): WireResult {
  result.ttlMs = policy.ttlMs;
  result.cacheScope = policy.cacheScope;
  return result;
}

/** The policy of results that must not be reused: retries of multi-round requests. */
export const NOT_CACHEABLE: CachePolicy = { ttlMs: 0, cacheScope: 'private' };

function implementationOf(runtime: ServerRuntime): JsonObject {
  const { name, version, title, description, icons, websiteUrl } = runtime.info;
  const info: JsonObject = { name, version };
  if (title !== undefined) info.title = title;
  if (description !== undefined) info.description = description;
  if (icons !== undefined) info.icons = icons as unknown as JsonObject[];
  if (websiteUrl !== undefined) info.websiteUrl = websiteUrl;
  return info;
}
