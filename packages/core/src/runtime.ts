import {
  ErrorCode,
  McpError,
  type PromptResult,
  type ResourceResult,
  type RoundResult,
  type ToolResult,
} from '@rondo/protocol';
import { resolveCachePolicy } from './cachePolicies.js';
import { demandScopes } from './callScopes.js';
import { seenBy, type Catalog } from './catalog.js';
import { checkCompletionTarget, completeFromProviders } from './completionTarget.js';
import type { HandlerContext } from './context.js';
import type {
  CacheableMethod,
  CachePolicy,
  CompletionRequest,
  CompletionResult,
  Principal,
} from './definitions.js';
import { ServerExtensions, type Extension } from './extension.js';
import { checkArgumentDepth } from './limits.js';
import { LocalProvider } from './localProvider.js';
import type { McpCall, Middleware } from './middleware.js';
import { MountTable } from './mount/mountTable.js';
import type { ItemKind } from './mount/naming.js';
import { checkRequiredArguments } from './promptArguments.js';
import type { Provider } from './provider.js';
import { ProviderCatalog } from './providerCatalog.js';
import type { RequestStateSealer } from './requestState.js';
import { normaliseRound } from './rounds.js';
import { ServerChanges, type ChangeListener, type LogListener } from './serverChanges.js';
import { serverSettings } from './serverSettings.js';
import { ToolSearchProvider } from './catalogs/toolSearchProvider.js';
import type {
  CatalogOptions,
  CachePolicyRule,
  ServerCapabilitySet,
  ServerInfo,
  ServerLogMessage,
  ServerOptions,
} from './serverTypes.js';
import type { RondoServer } from './server.js';
import type { SharedState } from './shared/sharedState.js';
import { runTool } from './toolRun.js';
import { isVisible } from './visibility.js';

/** Each server's runtime, reached only through `runtimeOf`. */
const runtimes = new WeakMap<RondoServer, ServerRuntime>();

/**
 * The runtime that serves a server: what era adapters, endpoints, extensions' attach steps,
 * middleware such as the response cache and Rondo's tests use. Exported from `@rondo/core/internal`
 * only: the server itself offers registration alone.
 */
export function runtimeOf(server: RondoServer): ServerRuntime {
  const runtime = runtimes.get(server);
  if (runtime === undefined) throw new TypeError('not a RondoServer (made by createServer)');
  return runtime;
}

/**
 * What serves a `RondoServer`: its providers and their catalog, the change fan-out, the request
 * state sealer, the limits, the middleware and extensions, and the operations the era
 * adapters, the request pipeline and the round operations run. The server the user holds only
 * registers into it; Rondo's own packages reach it with `runtimeOf(server)` from
 * `@rondo/core/internal`, and extensions receive it. It knows the canonical vocabulary, never an
 * era's JSON shape. Its operations run no middleware: the pipeline runs them inside it.
 */
export class ServerRuntime {
  readonly info: ServerInfo;
  readonly sealer: RequestStateSealer;
  readonly roundLimit: number;
  readonly pageSize: number;
  /** Bytes of one list page's descriptors (as JSON) at most; a page holds one item at least. */
  readonly maxPageBytes: number;
  readonly maxArgumentDepth: number;
  readonly log: (level: 'info' | 'warning' | 'error', message: string) => void;
  /** State shared with the other processes of the endpoint, when configured. */
  readonly shared: SharedState | undefined;
  /** The servers this one mounts and the servers mounting it. */
  readonly mounts: MountTable;
  /** The provider of what is registered in code (`server.tool(...)`, ...). */
  readonly local = new LocalProvider();
  /** Every provider and the catalog of their lists, with the per-descriptor rules. */
  readonly sources: ProviderCatalog;
  private readonly cacheRules = new Map<CacheableMethod, CachePolicyRule>();
  private readonly changes: ServerChanges;
  private readonly chain: Middleware[] = [];
  private readonly extensionSet = new ServerExtensions();
  private readonly defaultCachePolicy: CachePolicy;

  /** Serves `server` (which `runtimeOf` then maps to this runtime) with `options`. */
  constructor(options: ServerOptions, server: RondoServer) {
    runtimes.set(server, this);
    const settings = serverSettings(options);
    this.info = settings.info;
    this.log = settings.log;
    this.sealer = settings.sealer;
    this.roundLimit = settings.roundLimit;
    this.pageSize = settings.pageSize;
    this.maxPageBytes = settings.maxPageBytes;
    this.maxArgumentDepth = settings.maxArgumentDepth;
    this.defaultCachePolicy = settings.defaultCachePolicy;
    const { shared } = options;
    this.shared = shared;
    this.changes = new ServerChanges(shared?.changes, this.log);
    this.sources = new ProviderCatalog(
      this.info.name,
      (change) => this.changes.emit(change),
      this.log,
    );
    this.sources.add(this.local);
    this.shapeCatalog(options.catalog);
    this.mounts = new MountTable({ name: this.info.name, ownNames: (kind) => this.ownNames(kind) });
  }

  /** Sets up the catalog transforms of the server's options (tool search adds its meta-tools). */
  private shapeCatalog(options: CatalogOptions | undefined): void {
    if (options?.tools) this.sources.shaping.addTransforms(options.tools);
    const search = options?.toolSearch;
    if (search === undefined || search === false) return;
    const settings = search === true ? {} : search;
    const provider = new ToolSearchProvider(
      {
        catalog: () => this.catalog,
        callTool: (name, args, ctx) => this.callTool(name, args, ctx),
      },
      settings,
    );
    this.sources.add(provider);
    this.sources.shaping.search = { provider, pinned: new Set(settings.pinned ?? []) };
  }

  /** Adds a middleware, or an extension and its middleware (checked by `checkExtension`). */
  use(addition: Middleware | Extension): void {
    if (typeof addition === 'function') {
      this.chain.push(addition);
      return;
    }
    this.extensionSet.add(addition);
    if (addition.middleware) this.chain.push(addition.middleware);
  }

  /** The extensions in use, in the order they were added. */
  get extensions(): readonly Extension[] {
    return this.extensionSet.all;
  }

  /** The middleware, outermost first. */
  get middleware(): readonly Middleware[] {
    return this.chain;
  }

  /** Sets the cache policy rule of one cacheable method. */
  setCachePolicy(method: CacheableMethod, rule: CachePolicyRule): void {
    this.cacheRules.set(method, rule);
  }

  /** Tells this process's log listeners a server-wide message (`server.broadcastLog`). */
  broadcast(message: ServerLogMessage): void {
    this.changes.broadcast(message);
  }

  /** Hears the server-wide log messages (era adapters do); returns the function that stops. */
  onLog(listener: LogListener): () => void {
    return this.changes.addLog(listener);
  }

  /**
   * Listens for list and resource changes, from this process or (with `shared`) any process of the
   * endpoint; `changeId` names the change alike everywhere. Returns the function that stops.
   */
  onChange(listener: ChangeListener): () => void {
    return this.changes.add(listener);
  }

  /** Reads every provider's lists; requests wait for this once, then use the catalog synchronously. */
  ready(): Promise<void> {
    return this.sources.ready();
  }

  /** True once the catalog is loaded, so a caller may skip awaiting {@link ready} (an await costs a turn of the microtask queue). */
  get isReady(): boolean {
    return this.sources.isReady;
  }

  /** The current catalog; {@link ready} must have resolved. */
  get catalog(): Catalog {
    return this.sources.catalog;
  }

  /** What the providers offer, for capability negotiation. */
  capabilities(): ServerCapabilitySet {
    return this.sources.capabilities();
  }

  /**
   * Calls a tool. Unknown tool or arguments nesting past `maxArgumentDepth`: -32602. Bad
   * arguments, handler failures and a result that breaks the tool's `outputSchema`: an `isError`
   * result.
   */
  async callTool(
    name: string,
    args: unknown,
    ctx: HandlerContext,
  ): Promise<RoundResult<ToolResult>> {
    const entry = seenBy(this.catalog.tool(name), ctx.principal);
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`, { name });
    demandScopes(entry.scopes, ctx.principal, `tool "${name}"`);
    return runTool(entry, name, args, ctx, this.maxArgumentDepth);
  }

  /** Gets a prompt. Unknown prompt or missing required argument: -32602. */
  async getPrompt(
    name: string,
    args: Record<string, string>,
    ctx: HandlerContext,
  ): Promise<RoundResult<PromptResult>> {
    const entry = seenBy(this.catalog.prompt(name), ctx.principal);
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`, { name });
    demandScopes(entry.scopes, ctx.principal, `prompt "${name}"`);
    checkArgumentDepth(args, this.maxArgumentDepth);
    checkRequiredArguments(entry.definition, args);
    return normaliseRound(await entry.provider.getPrompt!(name, args, ctx));
  }

  /** Reads a resource; `undefined` when no provider has it (each era has its own not-found error). */
  async readResource(
    uri: string,
    ctx: HandlerContext,
  ): Promise<RoundResult<ResourceResult> | undefined> {
    const catalog = this.catalog;
    const exact = catalog.resource(uri);
    // A hidden resource or template reads as one nobody has.
    if (exact !== undefined && !isVisible(exact.visible, ctx.principal)) return undefined;
    if (exact === undefined && catalog.hidesTemplatedUri(uri, ctx.principal)) return undefined;
    const scopes = exact ? exact.scopes : catalog.templateScopes(uri, ctx.principal);
    demandScopes(scopes, ctx.principal, `resource "${uri}"`);
    const candidates = exact
      ? [exact.provider]
      : [...new Set(catalog.templates.map((t) => t.provider))];
    for (const provider of candidates) {
      const outcome = await provider.readResource?.(uri, ctx);
      if (outcome !== undefined) return normaliseRound(outcome);
    }
    return undefined;
  }

  /**
   * Completes an argument. A prompt or template that is unknown (or that the caller may not
   * see), or an argument it does not have: -32602. No completion known gives an empty list; a
   * list longer than 100 is cut to 100 with `hasMore: true`. `call` reaches the providers.
   */
  async complete(
    request: CompletionRequest,
    principal?: Principal,
    call?: McpCall,
  ): Promise<CompletionResult> {
    if (!this.isReady) await this.ready();
    checkCompletionTarget(this.catalog, request, principal);
    return completeFromProviders(this.sources.providers, request, call);
  }

  /** The cache policy of a cacheable result: a rule set on the server, then the providers', then the default. */
  cachePolicyFor(method: CacheableMethod, key?: string): CachePolicy {
    const rule = this.cacheRules.get(method);
    return resolveCachePolicy(rule, method, key, this.sources.providers, this.defaultCachePolicy);
  }

  /** Closes the extensions (which stop what they run, tasks say), then every provider. */
  async close(): Promise<void> {
    this.changes.close();
    await this.extensionSet.close();
    await Promise.all(this.sources.providers.map(async (p: Provider) => p.close?.()));
  }

  /** The names this server's own providers (its mounts aside) offer now. */
  private ownNames(kind: ItemKind): string[] {
    return [...this.local.names(kind), ...this.sources.loadedNames(kind, this.local)];
  }
}
