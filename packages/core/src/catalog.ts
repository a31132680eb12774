import type {
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
} from './definitions.js';
import { compileArgumentValidator, type ArgumentValidator } from './inputValidation.js';
import type { Provider } from './provider.js';

export interface ToolEntry {
  definition: ToolDefinition;
  provider: Provider;
  validate: ArgumentValidator;
}
export interface PromptEntry {
  definition: PromptDefinition;
  provider: Provider;
}
export interface ResourceEntry {
  definition: ResourceDefinition;
  provider: Provider;
}
export interface TemplateEntry {
  definition: ResourceTemplateDefinition;
  provider: Provider;
}

/** One provider's lists, as last read. */
export interface ProviderLists {
  tools: ToolDefinition[];
  prompts: PromptDefinition[];
  resources: ResourceDefinition[];
  templates: ResourceTemplateDefinition[];
}

/**
 * The lookup tables of a server, built when providers are read and again when one changes, never per
 * request. Lists keep registration order, so pagination is deterministic; a name offered by two
 * providers goes to the first.
 */
export class Catalog {
  readonly tools: readonly ToolEntry[];
  readonly prompts: readonly PromptEntry[];
  readonly resources: readonly ResourceEntry[];
  readonly templates: readonly TemplateEntry[];
  private readonly toolIndex = new Map<string, ToolEntry>();
  private readonly promptIndex = new Map<string, PromptEntry>();
  private readonly resourceIndex = new Map<string, ResourceEntry>();

  constructor(
    providers: readonly Provider[],
    lists: ReadonlyMap<Provider, ProviderLists>,
    validators: ValidatorCache,
  ) {
    const tools: ToolEntry[] = [];
    const prompts: PromptEntry[] = [];
    const resources: ResourceEntry[] = [];
    const templates: TemplateEntry[] = [];
    for (const provider of providers) {
      const list = lists.get(provider);
      if (!list) continue;
      for (const definition of list.tools) {
        if (this.toolIndex.has(definition.name)) continue;
        const entry = { definition, provider, validate: validators.get(provider, definition) };
        this.toolIndex.set(definition.name, entry);
        tools.push(entry);
      }
      for (const definition of list.prompts) {
        if (this.promptIndex.has(definition.name)) continue;
        const entry = { definition, provider };
        this.promptIndex.set(definition.name, entry);
        prompts.push(entry);
      }
      for (const definition of list.resources) {
        if (this.resourceIndex.has(definition.uri)) continue;
        const entry = { definition, provider };
        this.resourceIndex.set(definition.uri, entry);
        resources.push(entry);
      }
      for (const definition of list.templates) templates.push({ definition, provider });
    }
    this.tools = tools;
    this.prompts = prompts;
    this.resources = resources;
    this.templates = templates;
  }

  tool(name: string): ToolEntry | undefined {
    return this.toolIndex.get(name);
  }

  prompt(name: string): PromptEntry | undefined {
    return this.promptIndex.get(name);
  }

  resource(uri: string): ResourceEntry | undefined {
    return this.resourceIndex.get(uri);
  }
}

/**
 * Compiled argument validators, kept across catalog rebuilds so that a tool's schema is compiled
 * once: a tool whose definition object is unchanged reuses its validator.
 */
export class ValidatorCache {
  private readonly byDefinition = new WeakMap<ToolDefinition, ArgumentValidator>();
  private readonly overrides = new WeakMap<ToolDefinition, ArgumentValidator>();

  /** Registers a validator to use for a definition instead of compiling its JSON Schema (zod tools). */
  override(definition: ToolDefinition, validator: ArgumentValidator): void {
    this.overrides.set(definition, validator);
  }

  get(provider: Provider, definition: ToolDefinition): ArgumentValidator {
    const known = this.overrides.get(definition) ?? this.byDefinition.get(definition);
    if (known) return known;
    const compiled = compileArgumentValidator(
      definition.inputSchema,
      `tool "${definition.name}" of ${provider.name}`,
    );
    this.byDefinition.set(definition, compiled);
    return compiled;
  }
}
