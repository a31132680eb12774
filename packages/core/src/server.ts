import type { Json } from '@rondo/protocol';
import type { LogLevel } from './context.js';
import type { CacheableMethod, PromptArgument } from './definitions.js';
import type { SchemaInput } from './inputValidation.js';
import type {
  CompletionHandler,
  PromptHandler,
  ResourceHandler,
  TemplateHandler,
  ToolHandler,
} from './localProvider.js';
import type { Provider } from './provider.js';
import { MountedProvider } from './mount/mountedProvider.js';
import { MountNaming, type MountOptions } from './mount/naming.js';
import { runtimeOf, ServerRuntime } from './runtime.js';
import { taskDeclaration } from './taskSupport.js';
import type { Middleware } from './middleware.js';
import { serverCard } from './serverCard.js';
import type { Extension } from './extension.js';
import type {
  ArgsOf,
  CachePolicyRule,
  PromptArgsOf,
  PromptArguments,
  PromptSpec,
  ResourceSpec,
  ServerOptions,
  TemplateSpec,
  ToolSpec,
} from './serverTypes.js';
import { toolFromSpec } from './toolSpec.js';
import { promptFromSpec } from './promptSpec.js';

/** Creates a server: register tools, prompts and resources, then hand it to an endpoint. */
export function createServer(options: ServerOptions): RondoServer {
  return new RondoServer(options);
}

/**
 * A Rondo server as its user holds it: registration (tools, prompts, resources, completions,
 * cache policies, middleware and extensions, providers, mounts), the two announcements a handler
 * may make, and `close`. What serves it (the catalog, the operations, the sealer, the limits, the
 * extensions) is its `ServerRuntime`, held privately.
 */
export class RondoServer {
  constructor(options: ServerOptions) {
    // The runtime registers itself for `runtimeOf`, through which the server reaches it.
    new ServerRuntime(options, this);
    const card = options.serverCard;
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
    this.runtime.mounts.claimOwn('tool', name);
    this.runtime.sources.visibility.set(definition, spec.visible);
    this.runtime.sources.scopeRules.set(definition, spec.scopes);
    if (validator) this.runtime.sources.validators.override(definition, validator);
    this.runtime.local.addTool(definition, handler, taskDeclaration(name, spec.task));
    return this;
  }

  /** Removes a tool registered with {@link tool}; clients are told the list changed. */
  removeTool(name: string): boolean {
    return this.runtime.local.removeTool(name);
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
    this.runtime.mounts.claimOwn('prompt', name);
    this.runtime.sources.visibility.set(prompt.definition, spec.visible);
    this.runtime.sources.scopeRules.set(prompt.definition, spec.scopes);
    this.runtime.local.addPrompt(prompt.definition, prompt.handler);
    return this;
  }

  /** Removes a prompt registered with {@link prompt}. */
  removePrompt(name: string): boolean {
    return this.runtime.local.removePrompt(name);
  }

  /** Registers a concrete resource. */
  resource(uri: string, spec: ResourceSpec, handler: ResourceHandler): this {
    const { visible, scopes, ...described } = spec;
    const definition = { uri, ...described };
    this.runtime.mounts.claimOwn('resource', uri);
    this.runtime.sources.visibility.set(definition, visible);
    this.runtime.sources.scopeRules.set(definition, scopes);
    this.runtime.local.addResource(definition, handler);
    return this;
  }

  /** Removes a resource registered with {@link resource}. */
  removeResource(uri: string): boolean {
    return this.runtime.local.removeResource(uri);
  }

  /** Registers an RFC 6570 resource template; the handler gets the URI's variables. */
  resourceTemplate(uriTemplate: string, spec: TemplateSpec, handler: TemplateHandler): this {
    const { visible, scopes, ...described } = spec;
    const definition = { uriTemplate, ...described };
    this.runtime.mounts.claimOwn('template', uriTemplate);
    this.runtime.sources.visibility.set(definition, visible);
    this.runtime.sources.scopeRules.set(definition, scopes);
    this.runtime.local.addTemplate(definition, handler);
    return this;
  }

  /** Registers completion for one argument of a prompt (`{prompt}`) or a resource template (`{resource}`). */
  completion(
    ref: { prompt: string } | { resource: string },
    argument: string,
    handler: CompletionHandler,
  ): this {
    const refKey = 'prompt' in ref ? `prompt:${ref.prompt}` : `resource:${ref.resource}`;
    this.runtime.local.addCompletion(refKey, argument, handler);
    return this;
  }

  /** Sets the cache policy of one cacheable method's results (modern wire). */
  cachePolicy(method: CacheableMethod, rule: CachePolicyRule): this {
    this.runtime.setCachePolicy(method, rule);
    return this;
  }

  /**
   * Adds a middleware that runs around every request, in both eras and for every provider (the
   * first one added is the outermost; see {@link Middleware}), or an {@link Extension}: its
   * capability, methods, descriptor `_meta`, HTTP routes and middleware. Use extensions before
   * the server is served.
   */
  use(addition: Middleware | Extension): this {
    this.runtime.use(addition);
    if (typeof addition !== 'function') addition.attach?.(this);
    return this;
  }

  /** Adds a whole provider (a Prolog bridge, say). */
  provider(provider: Provider): this {
    this.runtime.sources.add(provider);
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
    const inner = runtimeOf(other);
    const mounted = new MountedProvider(inner, naming, this.runtime.sources, options.visible);
    this.runtime.mounts.mount(mounted);
    inner.onLog((message) => this.runtime.broadcast(message));
    return this.provider(mounted);
  }

  /** Announces that a resource's contents changed (to subscribed legacy clients and listening modern ones). */
  resourceUpdated(uri: string): void {
    this.runtime.local.resourceUpdated(uri);
  }

  /**
   * Sends a `notifications/message` about the whole server to each legacy session of this process
   * whose `logging/setLevel` admits `level`. The 2026-07-28 wire has no session-wide log channel:
   * write the message to stderr too.
   */
  broadcastLog(level: LogLevel, data: Json, logger?: string): void {
    this.runtime.broadcast({ level, data, ...(logger !== undefined ? { logger } : {}) });
  }

  /** Closes the extensions (which stop what they run: a task, a stream), then every provider. */
  close(): Promise<void> {
    return this.runtime.close();
  }

  private get runtime(): ServerRuntime {
    return runtimeOf(this);
  }
}
