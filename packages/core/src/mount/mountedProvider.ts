import type { ValidatorCache } from '../catalog.js';
import type { HandlerContext } from '../context.js';
import type {
  Arguments,
  CompletionRequest,
  CompletionResult,
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
} from '../definitions.js';
import type { ArgumentValidator } from '../inputValidation.js';
import { runMiddleware, type McpCall } from '../middleware.js';
import { RequestCall } from '../pipeline/call.js';
import type {
  PromptOutcome,
  Provider,
  ProviderCapabilities,
  ProviderChange,
  ResourceOutcome,
  ToolOutcome,
} from '../provider.js';
import type { ServerRuntime } from '../runtime.js';
import type { TaskDeclaration } from '../taskSupport.js';
import type { Visibility, VisibilityRules } from '../visibility.js';
import type { MountChild, MountTable } from './mountTable.js';
import type { ItemKind, MountNaming } from './naming.js';

/** Where a mount records, in its host, the rules of the descriptors it offers. */
export interface MountHost {
  readonly visibility: VisibilityRules;
  readonly validators: ValidatorCache;
}

/** A mounted tool's arguments are validated once, by the mounted server itself. */
const VALIDATED_INSIDE: ArgumentValidator = (args) => ({ ok: true, value: args });

/**
 * Another Rondo server as a provider of its host (`server.mount(other, options)`): its catalog,
 * renamed by the mount's {@link MountNaming}, is what the provider lists, and each call goes to
 * the mounted server's own operations inside its own middleware, so that data flows the usual
 * way: transport, era adapter, the host's pipeline and middleware, this provider, then the
 * mounted server's middleware, checks and provider. Its changes are the host's changes.
 */
export class MountedProvider implements Provider, MountChild {
  readonly name: string;
  /** The host's descriptor for each of the mounted server's, kept so a rebuild reuses them. */
  private readonly renamed = new WeakMap<object, object>();

  constructor(
    readonly runtime: ServerRuntime,
    readonly naming: MountNaming,
    private readonly host: MountHost,
    private readonly visible: Visibility | undefined,
  ) {
    this.name = `mount of ${runtime.info.name}`;
  }

  get table(): MountTable {
    return this.runtime.mounts;
  }

  capabilities(): ProviderCapabilities {
    const inner = this.runtime.isReady ? this.runtime.capabilities() : undefined;
    return {
      subscribe: inner?.subscribe ?? false,
      listChanged: true,
      completions: inner?.completions ?? false,
      // What the mounted server's providers need announced travels with their items.
      ...(inner?.extensions ? { extensions: inner.extensions } : {}),
    };
  }

  async tools(): Promise<ToolDefinition[]> {
    await this.runtime.ready();
    return this.runtime.catalog.callableTools.map((entry) =>
      this.rename(entry, 'tool', { ...entry.definition }, 'name'),
    );
  }

  listsTool(name: string): boolean {
    const inner = this.naming.inner('tool', name);
    return inner === undefined || this.runtime.catalog.tool(inner)?.listed !== false;
  }

  async prompts(): Promise<PromptDefinition[]> {
    await this.runtime.ready();
    return this.runtime.catalog.prompts.map((entry) =>
      this.rename(entry, 'prompt', { ...entry.definition }, 'name'),
    );
  }

  async resources(): Promise<ResourceDefinition[]> {
    await this.runtime.ready();
    return this.runtime.catalog.resources.map((entry) =>
      this.rename(entry, 'resource', { ...entry.definition }, 'uri'),
    );
  }

  async resourceTemplates(): Promise<ResourceTemplateDefinition[]> {
    await this.runtime.ready();
    return this.runtime.catalog.templates.map((entry) =>
      this.rename(entry, 'template', { ...entry.definition }, 'uriTemplate'),
    );
  }

  taskSupport(name: string): TaskDeclaration | undefined {
    const inner = this.naming.inner('tool', name);
    return inner === undefined ? undefined : this.runtime.catalog.tool(inner)?.task;
  }

  callTool(name: string, args: Arguments, ctx: HandlerContext): Promise<ToolOutcome> {
    const inner = this.naming.inner('tool', name) ?? name;
    const call = innerCall(ctx, 'tools/call', { name: inner });
    return this.inside(call, () => this.runtime.callTool(inner, args, ctx));
  }

  getPrompt(
    name: string,
    args: Record<string, string>,
    ctx: HandlerContext,
  ): Promise<PromptOutcome> {
    const inner = this.naming.inner('prompt', name) ?? name;
    const call = innerCall(ctx, 'prompts/get', { name: inner });
    return this.inside(call, () => this.runtime.getPrompt(inner, args, ctx));
  }

  async readResource(uri: string, ctx: HandlerContext): Promise<ResourceOutcome | undefined> {
    const inner = this.naming.inner('resource', uri);
    if (inner === undefined) return undefined;
    const call = innerCall(ctx, 'resources/read', { uri: inner });
    const outcome = await this.inside(call, () => this.runtime.readResource(inner, ctx));
    if (outcome?.kind !== 'complete') return outcome;
    // The contents carry the URIs the client knows them by.
    const contents = outcome.result.contents.map((item) => ({
      ...item,
      uri: this.naming.outer('resource', item.uri),
    }));
    return { kind: 'complete', result: { ...outcome.result, contents } };
  }

  async complete(
    request: CompletionRequest,
    call?: McpCall,
  ): Promise<CompletionResult | undefined> {
    const ref = request.ref;
    const catalog = this.runtime.catalog;
    let inner: CompletionRequest | undefined;
    if (ref.type === 'ref/prompt') {
      const name = this.naming.inner('prompt', ref.name);
      if (name !== undefined && catalog.prompt(name)) inner = { ...request, ref: { ...ref, name } };
    } else {
      const uri = this.naming.inner('template', ref.uri);
      if (uri !== undefined && catalog.templates.some((t) => t.definition.uriTemplate === uri))
        inner = { ...request, ref: { ...ref, uri } };
    }
    // Not the mount's: another provider of the host completes it.
    if (inner === undefined) return undefined;
    const seen = call && seenAs(call, call.method, { ...call.params, ref: inner.ref });
    const target = inner;
    return this.inside(seen, () => this.runtime.complete(target, call?.principal));
  }

  onChange(listener: (change: ProviderChange) => void): () => void {
    return this.runtime.onChange((change) =>
      listener(
        change.kind === 'resource'
          ? { kind: 'resource', uri: this.naming.outer('resource', change.uri) }
          : change,
      ),
    );
  }

  /** Closing the host closes the servers it mounts. */
  close(): Promise<void> {
    return this.runtime.close();
  }

  /** Runs a step inside the mounted server's middleware (its own names in `call.params`). */
  private inside<T>(call: McpCall | undefined, step: () => Promise<T>): Promise<T> {
    const chain = this.runtime.middleware;
    return chain.length === 0 || call === undefined ? step() : runMiddleware(chain, call, step);
  }

  /**
   * The host's descriptor of one of the mounted server's, renamed; made once per descriptor,
   * with the visibility of both servers and the note that the mounted server validates.
   */
  private rename<D extends object>(
    entry: { definition: object; visible?: Visibility },
    kind: ItemKind,
    copy: D,
    member: keyof D & string,
  ): D {
    const known = this.renamed.get(entry.definition);
    if (known) return known as D;
    (copy as Record<string, unknown>)[member] = this.naming.outer(kind, copy[member] as string);
    this.host.visibility.set(copy, both(this.visible, entry.visible));
    if (kind === 'tool') this.host.validators.override(copy as ToolDefinition, VALIDATED_INSIDE);
    this.renamed.set(entry.definition, copy);
    return copy;
  }
}

/** A rule admitting whom both rules admit (an absent rule admits everyone). */
function both(a: Visibility | undefined, b: Visibility | undefined): Visibility | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return (principal) => a(principal) && b(principal);
}

/**
 * A call as the mounted server's middleware sees it: the same request under another method or
 * params. Its members are copied, the signal read only when middleware reads it (a
 * `RequestCall` creates its abort signal on first read).
 */
function seenAs(call: McpCall, method: string, params: Record<string, unknown>): McpCall {
  return {
    method,
    params,
    era: call.era,
    revision: call.revision,
    principal: call.principal,
    id: call.id,
    cancellation: call.cancellation,
    get signal() {
      return call.signal;
    },
    round: call.round,
    headers: call.headers,
    sessionId: call.sessionId,
    client: call.client,
    address: call.address,
    stop: (reason) => call.stop(reason),
  };
}

/**
 * What the mounted server's middleware sees of a host's call: the same request, with the mounted
 * server's own name (or URI) in its params. Undefined outside a request pipeline (a direct call
 * of the host's operations, which runs no middleware either).
 */
function innerCall(
  ctx: HandlerContext,
  method: string,
  rename: Record<string, string>,
): McpCall | undefined {
  if (!(ctx instanceof RequestCall)) return undefined;
  return seenAs(ctx, method, { ...ctx.params, ...rename });
}
