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
import {
  Catalog,
  ValidatorCache,
  capabilitiesOf,
  readLists,
  seenBy,
  type ProviderLists,
} from './catalog.js';
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
import type { Provider, ProviderChange } from './provider.js';
import { RequestStateSealer } from './requestState.js';
import type { SharedState } from './shared/sharedState.js';
import { ServerChanges, type ChangeListener, type LogListener } from './serverChanges.js';
import { TaskRegistry } from './tasks/taskRegistry.js';
import { taskDeclaration } from './tasks/declaration.js';
import { tasksExtension } from './tasks/tasksExtension.js';
import { serverCard } from './serverCard.js';
import { DEFAULT_MAX_ARGUMENT_DEPTH, checkArgumentDepth } from './limits.js';
import { callCatalogTool } from './toolCall.js';
import type { Middleware } from './middleware.js';
import { ServerExtensions, type Extension } from './extension.js';
import { normaliseRound } from './rounds.js';
import type {
  ArgsOf,
  CachePolicyRule,
  PromptArgsOf,
  PromptSpec,
  ResourceSpec,
  ServerCapabilitySet,
  ServerInfo,
  ServerOptions,
  TemplateSpec,
  ToolSpec,
} from './serverTypes.js';
import { toolFromSpec } from './toolSpec.js';
import { VisibilityRules, isVisible } from './visibility.js';
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
  private readonly local = new LocalProvider();
  private readonly providers: Provider[] = [this.local];
  private readonly lists = new Map<Provider, ProviderLists>();
  private readonly validators = new ValidatorCache();
  private readonly visibility = new VisibilityRules();
  private readonly cacheRules = new Map<CacheableMethod, CachePolicyRule>();
  private readonly changes: ServerChanges;
  private readonly chain: Middleware[] = [];
  private readonly extensionSet = new ServerExtensions();
  private readonly defaultCachePolicy: CachePolicy;
  private current: Catalog | undefined;
  private loading: Promise<void> | undefined;

  constructor(options: ServerOptions) {
    const {
      requestState,
      roundLimit,
      pageSize,
      defaultCachePolicy,
      log,
      limits,
      tasks,
      shared,
      serverCard: card,
      ...info
    } = options;
    this.shared = shared;
    this.info = info;
    // console.error rather than process.stderr: the core also runs where there is no `process`.
    this.log = log ?? ((level, message) => console.error(`[rondo ${level}] ${message}`));
    this.sealer = new RequestStateSealer({
      warn: (m) => this.log('warning', m),
      ...(shared?.usedStates ? { usedStates: shared.usedStates } : {}),
      ...requestState,
    });
    this.roundLimit = roundLimit ?? 10;
    this.pageSize = pageSize ?? 100;
    this.maxArgumentDepth = limits?.maxArgumentDepth ?? DEFAULT_MAX_ARGUMENT_DEPTH;
    this.defaultCachePolicy = defaultCachePolicy ?? { ttlMs: 0, cacheScope: 'private' };
    this.tasks = new TaskRegistry({ ...(shared ? { store: shared.tasks } : {}), ...tasks });
    this.changes = new ServerChanges(shared?.changes, this.log);
    this.use(tasksExtension(this.tasks));
    if (card) this.use(serverCard(card === true ? {} : card));
    this.watch(this.local);
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
    this.visibility.set(definition, spec.visible);
    if (validator) this.validators.override(definition, validator);
    this.local.addTool(definition, handler, taskDeclaration(name, spec.task));
    return this;
  }

  /** Removes a tool registered with {@link tool}; clients are told the list changed. */
  removeTool(name: string): boolean {
    return this.local.removeTool(name);
  }

  /** Registers a prompt; the handler's arguments follow the declared ones ({@link PromptArgsOf}). */
  prompt<const A extends readonly PromptArgument[] = PromptArgument[]>(
    name: string,
    spec: PromptSpec<A>,
    handler: PromptHandler<PromptArgsOf<A>>,
  ): this {
    const { visible, arguments: declared, ...described } = spec;
    const definition = { name, ...described, ...(declared ? { arguments: [...declared] } : {}) };
    this.visibility.set(definition, visible);
    // getPrompt refuses a call missing a required argument (checkRequiredArguments): the type holds.
    this.local.addPrompt(definition, handler as PromptHandler);
    return this;
  }

  /** Removes a prompt registered with {@link prompt}. */
  removePrompt(name: string): boolean {
    return this.local.removePrompt(name);
  }

  /** Registers a concrete resource. */
  resource(uri: string, spec: ResourceSpec, handler: ResourceHandler): this {
    const { visible, ...described } = spec;
    const definition = { uri, ...described };
    this.visibility.set(definition, visible);
    this.local.addResource(definition, handler);
    return this;
  }

  /** Removes a resource registered with {@link resource}. */
  removeResource(uri: string): boolean {
    return this.local.removeResource(uri);
  }

  /** Registers an RFC 6570 resource template; the handler gets the URI's variables. */
  resourceTemplate(uriTemplate: string, spec: TemplateSpec, handler: TemplateHandler): this {
    const { visible, ...described } = spec;
    const definition = { uriTemplate, ...described };
    this.visibility.set(definition, visible);
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
    this.providers.push(provider);
    this.watch(provider);
    this.current = undefined;
    this.loading = undefined;
    return this;
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
    if (this.current) return Promise.resolve();
    this.loading ??= this.loadAll();
    return this.loading;
  }

  /** True once the catalog is loaded, so a caller may skip awaiting {@link ready} (an await costs a turn of the microtask queue). */
  get isReady(): boolean {
    return this.current !== undefined;
  }

  /** The current catalog; {@link ready} must have resolved. */
  get catalog(): Catalog {
    if (!this.current)
      throw new McpError(ErrorCode.InternalError, 'Server catalog used before ready()');
    return this.current;
  }

  /** What the providers offer, for capability negotiation. */
  capabilities(): ServerCapabilitySet {
    return capabilitiesOf(this.catalog, this.providers);
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
    return callCatalogTool(this.catalog, this.maxArgumentDepth, name, args, ctx);
  }

  /** Gets a prompt. Unknown prompt or missing required argument: -32602. */
  async getPrompt(
    name: string,
    args: Record<string, string>,
    ctx: HandlerContext,
  ): Promise<RoundResult<PromptResult>> {
    const entry = seenBy(this.catalog.prompt(name), ctx.principal);
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`, { name });
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
   * list longer than 100 is cut to 100 with `hasMore: true`.
   */
  async complete(request: CompletionRequest, principal?: Principal): Promise<CompletionResult> {
    if (!this.isReady) await this.ready();
    checkCompletionTarget(this.catalog, request, principal);
    return completeFromProviders(this.providers, request);
  }

  /** The cache policy of a cacheable result: a rule set on the server, then the providers', then the default. */
  cachePolicyFor(method: CacheableMethod, key?: string): CachePolicy {
    const rule = this.cacheRules.get(method);
    return resolveCachePolicy(rule, method, key, this.providers, this.defaultCachePolicy);
  }

  /** Cancels the tasks running here, then closes the task store and every provider. */
  async close(): Promise<void> {
    this.changes.close();
    await this.tasks.close();
    await this.extensionSet.close();
    await Promise.all(this.providers.map(async (p) => p.close?.()));
  }

  private watch(provider: Provider): void {
    provider.onChange?.((change) => void this.applyChange(provider, change));
  }

  private async applyChange(provider: Provider, change: ProviderChange): Promise<void> {
    if (change.kind !== 'resource' && this.lists.has(provider)) {
      this.lists.set(provider, await readLists(provider));
      this.current = new Catalog(this.providers, this.lists, this.validators, this.visibility);
    }
    this.changes.emit(change);
  }

  private async loadAll(): Promise<void> {
    for (const provider of this.providers) {
      if (!this.lists.has(provider)) this.lists.set(provider, await readLists(provider));
    }
    this.current = new Catalog(this.providers, this.lists, this.validators, this.visibility);
  }
}
