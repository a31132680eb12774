import {
  ErrorCode,
  McpError,
  type Json,
  type PromptResult,
  type ResourceResult,
  type RoundResult,
  type ToolResult,
} from '@rondo/protocol';
import { resolveCachePolicy } from './cachePolicies.js';
import { checkRequiredArguments } from './promptArguments.js';
import { seenBy, type Catalog } from './catalog.js';
import type { HandlerContext, LogLevel } from './context.js';
import type {
  CacheableMethod,
  Principal,
  PromptArgument,
  CachePolicy,
  CompletionRequest,
  CompletionResult,
} from './definitions.js';
import type { SchemaInput } from './inputValidation.js';
import {
  LocalProvider,
  type CompletionHandler,
  type PromptHandler,
  type ResourceHandler,
  type TemplateHandler,
  type ToolHandler,
} from './localProvider.js';
import type { Provider } from './provider.js';
import { ProviderCatalog } from './providerCatalog.js';
import { MountedProvider } from './mount/mountedProvider.js';
import { MountTable } from './mount/mountTable.js';
import { MountNaming, type ItemKind, type MountOptions } from './mount/naming.js';
import type { RequestStateSealer } from './requestState.js';
import { serverSettings } from './serverSettings.js';
import type { SharedState } from './shared/sharedState.js';
import { ServerChanges, type ChangeListener, type LogListener } from './serverChanges.js';
import { TaskRegistry } from './tasks/taskRegistry.js';
import { taskDeclaration } from './tasks/declaration.js';
import { checkArgumentDepth } from './limits.js';
import type { McpCall, Middleware } from './middleware.js';
import { tasksExtension } from './tasks/tasksExtension.js';
import { serverCard } from './serverCard.js';
import { ServerExtensions, type Extension } from './extension.js';
import { normaliseRound } from './rounds.js';
import type {
  ArgsOf,
  CachePolicyRule,
  PromptArgsOf,
  PromptArguments,
  PromptSpec,
  ResourceSpec,
  ServerCapabilitySet,
  ServerInfo,
  ServerOptions,
  TemplateSpec,
  ToolSpec,
} from './serverTypes.js';
import { toolFromSpec } from './toolSpec.js';
import { promptFromSpec } from './promptSpec.js';
import { demandScopes } from './callScopes.js';
import { runTool } from './toolRun.js';
import { isVisible } from './visibility.js';
import { checkCompletionTarget, completeFromProviders } from './completionTarget.js';

/** Creates a server: register tools, prompts and resources, then hand it to an endpoint. */
export function createServer(options: ServerOptions): RondoServer {
  return new RondoServer(options);
}

/**
 * A Rondo server: the providers, their catalog and the operations the era adapters call. It knows
 * the canonical vocabulary, never an era's JSON shape.
 */
export class RondoServer {
  readonly info: ServerInfo;
  readonly sealer: RequestStateSealer;
  readonly roundLimit: number;
  readonly pageSize: number;
  readonly maxArgumentDepth: number;
  readonly log: (level: 'info' | 'warning' | 'error', message: string) => void;
  /** The server's tasks (the Tasks extension of the modern wire). */
  readonly tasks: TaskRegistry;
  /** State shared with the other processes of the endpoint, when configured. */
  readonly shared: SharedState | undefined;
  /** The servers this one mounts and the servers mounting it (`mount`). */
  readonly mounts: MountTable;
  private readonly local = new LocalProvider();
  private readonly sources: ProviderCatalog;
  private readonly cacheRules = new Map<CacheableMethod, CachePolicyRule>();
  private readonly changes: ServerChanges;
  private readonly chain: Middleware[] = [];
  private readonly extensionSet = new ServerExtensions();
  private readonly defaultCachePolicy: CachePolicy;

  constructor(options: ServerOptions) {
    const settings = serverSettings(options);
    this.info = settings.info;
    this.log = settings.log;
    this.sealer = settings.sealer;
    this.roundLimit = settings.roundLimit;
    this.pageSize = settings.pageSize;
    this.maxArgumentDepth = settings.maxArgumentDepth;
    this.defaultCachePolicy = settings.defaultCachePolicy;
    const { shared, tasks, serverCard: card } = options;
    this.shared = shared;
    this.tasks = new TaskRegistry({ ...(shared ? { store: shared.tasks } : {}), ...tasks });
    this.changes = new ServerChanges(shared?.changes, this.log);
    this.sources = new ProviderCatalog(
      this.info.name,
      (change) => this.changes.emit(change),
      this.log,
    );
    this.sources.add(this.local);
    this.mounts = new MountTable({ name: this.info.name, ownNames: (kind) => this.ownNames(kind) });
    this.use(tasksExtension(this.tasks));
    if (card) this.use(serverCard(card === true ? {} : card));
  }

  /**
   * Registers a tool. `input` (and `output`) is an object schema: zod, any Standard Schema that
   * exports JSON Schema (ArkType; Valibot through `toStandardJsonSchema`), or JSON Schema;
   * arguments are validated before the handler runs. A name outside the spec's characters or a
   * schema that is not an object schema throws a `ToolDefinitionError`.
   */
  tool<S extends SchemaInput>(
    name: string,
    spec: ToolSpec<S>,
    handler: ToolHandler<ArgsOf<S>>,
  ): this {
    const { definition, validator } = toolFromSpec(name, spec);
    this.mounts.claimOwn('tool', name);
    this.sources.visibility.set(definition, spec.visible);
    this.sources.scopeRules.set(definition, spec.scopes);
    if (validator) this.sources.validators.override(definition, validator);
    this.local.addTool(definition, handler, taskDeclaration(name, spec.task));
    return this;
  }

  /** Removes a tool registered with {@link tool}; clients are told the list changed. */
  removeTool(name: string): boolean {
    return this.local.removeTool(name);
  }

  /**
   * Registers a prompt. Its `arguments` are a list of descriptors, or an object schema of string
   * fields (zod, Standard Schema, JSON Schema) that the list is derived from and the arguments are
   * validated with (-32602 naming the field); the handler's arguments follow ({@link PromptArgsOf}).
   * A schema that is not an object of strings throws a `PromptDefinitionError`.
   */
  prompt<const A extends PromptArguments = PromptArgument[]>(
    name: string,
    spec: PromptSpec<A>,
    handler: PromptHandler<PromptArgsOf<A>>,
  ): this {
    // getPrompt refuses a call missing a required argument (checkRequiredArguments): the type holds.
    const prompt = promptFromSpec(name, spec, handler);
    this.mounts.claimOwn('prompt', name);
    this.sources.visibility.set(prompt.definition, spec.visible);
    this.sources.scopeRules.set(prompt.definition, spec.scopes);
    this.local.addPrompt(prompt.definition, prompt.handler);
    return this;
  }

  /** Removes a prompt registered with {@link prompt}. */
  removePrompt(name: string): boolean {
    return this.local.removePrompt(name);
  }

  /** Registers a concrete resource. */
  resource(uri: string, spec: ResourceSpec, handler: ResourceHandler): this {
    const { visible, scopes, ...described } = spec;
    const definition = { uri, ...described };
    this.mounts.claimOwn('resource', uri);
    this.sources.visibility.set(definition, visible);
    this.sources.scopeRules.set(definition, scopes);
    this.local.addResource(definition, handler);
    return this;
  }

  /** Removes a resource registered with {@link resource}. */
  removeResource(uri: string): boolean {
    return this.local.removeResource(uri);
  }

  /** Registers an RFC 6570 resource template; the handler gets the URI's variables. */
  resourceTemplate(uriTemplate: string, spec: TemplateSpec, handler: TemplateHandler): this {
    const { visible, scopes, ...described } = spec;
    const definition = { uriTemplate, ...described };
    this.mounts.claimOwn('template', uriTemplate);
    this.sources.visibility.set(definition, visible);
    this.sources.scopeRules.set(definition, scopes);
    this.local.addTemplate(definition, handler);
    return this;
  }

  /** Registers completion for one argument of a prompt (`{prompt}`) or a resource template (`{resource}`). */
  completion(
    ref: { prompt: string } | { resource: string },
    argument: string,
    handler: CompletionHandler,
  ): this {
    const refKey = 'prompt' in ref ? `prompt:${ref.prompt}` : `resource:${ref.resource}`;
    this.local.addCompletion(refKey, argument, handler);
    return this;
  }

  /** Sets the cache policy of one cacheable method's results (modern wire). */
  cachePolicy(method: CacheableMethod, rule: CachePolicyRule): this {
    this.cacheRules.set(method, rule);
    return this;
  }

  /**
   * Adds a middleware that runs around every request, in both eras and for every provider (the
   * first one added is the outermost; see {@link Middleware}), or an {@link Extension}: its
   * capability, methods, descriptor `_meta`, HTTP routes and middleware. Use extensions before
   * the server is served.
   */
  use(addition: Middleware | Extension): this {
    if (typeof addition === 'function') {
      this.chain.push(addition);
      return this;
    }
    this.extensionSet.add(addition);
    if (addition.middleware) this.chain.push(addition.middleware);
    addition.attach?.(this);
    return this;
  }

  /** The extensions in use, in the order they were added. */
  get extensions(): readonly Extension[] {
    return this.extensionSet.all;
  }

  /** The middleware, outermost first. */
  get middleware(): readonly Middleware[] {
    return this.chain;
  }

  /** Adds a whole provider (a Prolog bridge, say). */
  provider(provider: Provider): this {
    this.sources.add(provider);
    return this;
  }

  /**
   * Mounts another Rondo server: its tools and prompts are offered here under `namespace_name`,
   * its resources and templates as they are or prefixed (`options.resources`), its completions,
   * changes and log messages pass through. A call runs this server's middleware, then the mounted
   * server's (which sees its own names), then its handler. A name that would be offered twice
   * throws a `MountConflictError`, now or when either server registers it later. See
   * docs/composition.md.
   */
  mount(other: RondoServer, options: MountOptions = {}): this {
    const naming = new MountNaming(options.namespace ?? '', options.resources ?? 'keep');
    const mounted = new MountedProvider(other, naming, this.sources, options.visible);
    this.mounts.mount(mounted);
    other.onLog((message) => this.changes.broadcast(message));
    return this.provider(mounted);
  }

  /** Announces that a resource's contents changed (to subscribed legacy clients and listening modern ones). */
  resourceUpdated(uri: string): void {
    this.local.resourceUpdated(uri);
  }

  /**
   * Sends a `notifications/message` about the whole server to each legacy session of this process
   * whose `logging/setLevel` admits `level`. The 2026-07-28 wire has no session-wide log channel:
   * write the message to stderr too.
   */
  broadcastLog(level: LogLevel, data: Json, logger?: string): void {
    this.changes.broadcast({ level, data, ...(logger !== undefined ? { logger } : {}) });
  }

  /** Hears the {@link RondoServer.broadcastLog} messages (era adapters do); returns the function that stops. */
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
   * Calls a tool. Unknown tool or arguments nesting past `maxArgumentDepth`: -32602. Bad arguments, handler failures and a result that breaks the
   * tool's `outputSchema`: an `isError` result.
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

  /** Cancels the tasks running here, then closes the task store and every provider. */
  async close(): Promise<void> {
    this.changes.close();
    await this.tasks.close();
    await this.extensionSet.close();
    await Promise.all(this.sources.providers.map(async (p) => p.close?.()));
  }

  /** The names this server's own providers (its mounts aside) offer now. */
  private ownNames(kind: ItemKind): string[] {
    return [...this.local.names(kind), ...this.sources.loadedNames(kind, this.local)];
  }
}
