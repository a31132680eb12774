import type { PromptResult, ResourceResult, ToolResult } from '@rondo/protocol';
import type { HandlerContext } from './context.js';
import type {
  Arguments,
  CompletionRequest,
  CompletionResult,
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
} from './definitions.js';
import { ConfigurationError } from './errors.js';
import type { ItemKind } from './mount/naming.js';
import type { TaskDeclaration } from './taskSupport.js';
import type {
  PromptOutcome,
  Provider,
  ProviderChange,
  ResourceOutcome,
  ToolOutcome,
} from './provider.js';
import { compileTemplate, type CompiledTemplate } from './uriTemplate.js';

export type ToolHandler<A = Arguments> = (
  args: A,
  ctx: HandlerContext,
) => ToolOutcome | string | Promise<ToolOutcome | string>;
export type PromptHandler<A = Record<string, string>> = (
  args: A,
  ctx: HandlerContext,
) => PromptOutcome | Promise<PromptOutcome>;
export type ResourceHandler = (
  uri: string,
  ctx: HandlerContext,
) => ResourceOutcome | Promise<ResourceOutcome>;
export type TemplateHandler = (
  uri: string,
  variables: Record<string, string | string[]>,
  ctx: HandlerContext,
) => ResourceOutcome | undefined | Promise<ResourceOutcome | undefined>;
export type CompletionHandler = (
  value: string,
  context: Record<string, string>,
) => string[] | CompletionResult | Promise<string[] | CompletionResult>;

interface TemplateEntry {
  definition: ResourceTemplateDefinition;
  compiled: CompiledTemplate;
  handler: TemplateHandler;
}

/** The provider behind the builder API: TypeScript handlers registered with `server.tool(...)` etc. */
export class LocalProvider implements Provider {
  readonly name = 'local';
  private readonly toolMap = new Map<
    string,
    { definition: ToolDefinition; handler: ToolHandler<never>; task?: TaskDeclaration }
  >();
  private readonly promptMap = new Map<
    string,
    { definition: PromptDefinition; handler: PromptHandler }
  >();
  private readonly resourceMap = new Map<
    string,
    { definition: ResourceDefinition; handler: ResourceHandler }
  >();
  private readonly templateList: TemplateEntry[] = [];
  private readonly completions = new Map<string, CompletionHandler>();
  private readonly listeners = new Set<(change: ProviderChange) => void>();

  addTool(definition: ToolDefinition, handler: ToolHandler<never>, task?: TaskDeclaration): void {
    if (this.toolMap.has(definition.name))
      throw new ConfigurationError(`tool "${definition.name}" is already registered`);
    this.toolMap.set(definition.name, { definition, handler, task });
    this.emit({ kind: 'tools' });
  }

  taskSupport(name: string): TaskDeclaration | undefined {
    return this.toolMap.get(name)?.task;
  }

  removeTool(name: string): boolean {
    const removed = this.toolMap.delete(name);
    if (removed) this.emit({ kind: 'tools' });
    return removed;
  }

  addPrompt(definition: PromptDefinition, handler: PromptHandler): void {
    if (this.promptMap.has(definition.name))
      throw new ConfigurationError(`prompt "${definition.name}" is already registered`);
    this.promptMap.set(definition.name, { definition, handler });
    this.emit({ kind: 'prompts' });
  }

  removePrompt(name: string): boolean {
    const removed = this.promptMap.delete(name);
    if (removed) this.emit({ kind: 'prompts' });
    return removed;
  }

  addResource(definition: ResourceDefinition, handler: ResourceHandler): void {
    if (this.resourceMap.has(definition.uri))
      throw new ConfigurationError(`resource "${definition.uri}" is already registered`);
    this.resourceMap.set(definition.uri, { definition, handler });
    this.emit({ kind: 'resources' });
  }

  removeResource(uri: string): boolean {
    const removed = this.resourceMap.delete(uri);
    if (removed) this.emit({ kind: 'resources' });
    return removed;
  }

  addTemplate(definition: ResourceTemplateDefinition, handler: TemplateHandler): void {
    this.templateList.push({
      definition,
      compiled: compileTemplate(definition.uriTemplate),
      handler,
    });
    this.emit({ kind: 'resources' });
  }

  addCompletion(refKey: string, argument: string, handler: CompletionHandler): void {
    this.completions.set(`${refKey}\u0000${argument}`, handler);
  }

  /** Announces that a resource's contents changed. */
  resourceUpdated(uri: string): void {
    this.emit({ kind: 'resource', uri });
  }

  capabilities() {
    return { subscribe: true, listChanged: true, completions: this.completions.size > 0 };
  }

  /** The names (URIs, URI templates) of one kind registered now. */
  names(kind: ItemKind): string[] {
    if (kind === 'tool') return [...this.toolMap.keys()];
    if (kind === 'prompt') return [...this.promptMap.keys()];
    if (kind === 'resource') return [...this.resourceMap.keys()];
    return this.templateList.map((entry) => entry.definition.uriTemplate);
  }

  tools(): ToolDefinition[] {
    return [...this.toolMap.values()].map((entry) => entry.definition);
  }

  prompts(): PromptDefinition[] {
    return [...this.promptMap.values()].map((entry) => entry.definition);
  }

  resources(): ResourceDefinition[] {
    return [...this.resourceMap.values()].map((entry) => entry.definition);
  }

  resourceTemplates(): ResourceTemplateDefinition[] {
    return this.templateList.map((entry) => entry.definition);
  }

  async callTool(name: string, args: Arguments, ctx: HandlerContext): Promise<ToolOutcome> {
    const entry = this.toolMap.get(name);
    if (!entry) return { kind: 'error', text: `Unknown tool: ${name}` };
    const outcome = await (entry.handler as ToolHandler)(args, ctx);
    return typeof outcome === 'string' ? { kind: 'text', text: outcome } : outcome;
  }

  async getPrompt(
    name: string,
    args: Record<string, string>,
    ctx: HandlerContext,
  ): Promise<PromptOutcome> {
    const entry = this.promptMap.get(name);
    if (!entry) return { kind: 'messages', messages: [] } satisfies PromptResult;
    return entry.handler(args, ctx);
  }

  async readResource(uri: string, ctx: HandlerContext): Promise<ResourceOutcome | undefined> {
    const entry = this.resourceMap.get(uri);
    if (entry) return entry.handler(uri, ctx);
    for (const template of this.templateList) {
      const variables = template.compiled.match(uri);
      if (variables) {
        const outcome = await template.handler(uri, variables, ctx);
        if (outcome !== undefined) return outcome;
      }
    }
    return undefined satisfies ResourceResult | undefined;
  }

  async complete(request: CompletionRequest): Promise<CompletionResult | undefined> {
    const refKey =
      request.ref.type === 'ref/prompt'
        ? `prompt:${request.ref.name}`
        : `resource:${request.ref.uri}`;
    const handler = this.completions.get(`${refKey}\u0000${request.argument.name}`);
    if (!handler) return undefined;
    const answer = await handler(request.argument.value, request.context?.arguments ?? {});
    return Array.isArray(answer) ? { values: answer } : answer;
  }

  onChange(listener: (change: ProviderChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(change: ProviderChange): void {
    for (const listener of this.listeners) listener(change);
  }
}

/** Keeps the `ToolResult` import meaningful for readers: a string handler result means `text`. */
export type { ToolResult };
