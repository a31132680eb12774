import type { JsonObject } from '@rondo/protocol';
import type {
  Principal,
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
} from './definitions.js';
import { compileArgumentValidator, type ArgumentValidator } from './inputValidation.js';
import type { Provider, ProviderCapabilities } from './provider.js';
import type { ServerCapabilitySet } from './serverTypes.js';
import type { TaskDeclaration } from './taskSupport.js';
import { compileTemplate, type CompiledTemplate } from './uriTemplate.js';
import { isVisible, type Visibility, type VisibilityRules } from './visibility.js';
import type { ScopeRules } from './callScopes.js';
import { shapeTool, type CatalogShaping } from './catalogs/catalogShaping.js';
import { DerivedToolProvider } from './catalogs/derivedToolProvider.js';
import type { ToolTransformError } from './catalogs/toolTransform.js';

/** The task support of a tool whose provider declares none. */
const NO_TASKS: TaskDeclaration = Object.freeze({ support: 'forbidden' });

/** What every catalog entry has: its descriptor, its provider, and who may see it. */
interface Entry<D> {
  definition: D;
  provider: Provider;
  /** Who may see the entry; absent when everyone may. */
  visible?: Visibility;
  /** The scopes a call to the entry needs (a refusal names them); absent when none. */
  scopes?: readonly string[];
}
export interface ToolEntry extends Entry<ToolDefinition> {
  validate: ArgumentValidator;
  /** Whether the tool runs as a task (not part of its descriptor: the modern wire has no field for it). */
  task: TaskDeclaration;
  /** False for a tool callable by name but left out of `tools/list` (behind tool search). */
  listed: boolean;
}
export type PromptEntry = Entry<PromptDefinition>;
export type ResourceEntry = Entry<ResourceDefinition>;
export interface TemplateEntry extends Entry<ResourceTemplateDefinition> {
  /** The compiled template of an entry with a visibility rule or scopes, to recognise its URIs. */
  compiled?: CompiledTemplate;
}

/** The four lists of a catalog, by the name `Catalog` keeps them under. */
export type CatalogList = 'tools' | 'prompts' | 'resources' | 'templates';

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
  /** The tools `tools/list` shows (to whoever may see them). */
  readonly tools: readonly ToolEntry[];
  /** Every tool a caller may call by name: the listed ones and those behind tool search. */
  readonly callableTools: readonly ToolEntry[];
  /** The transforms that did not fit their tool (the tool is left out), in catalog order. */
  readonly problems: readonly ToolTransformError[];
  readonly prompts: readonly PromptEntry[];
  readonly resources: readonly ResourceEntry[];
  readonly templates: readonly TemplateEntry[];
  private readonly toolIndex = new Map<string, ToolEntry>();
  private readonly promptIndex = new Map<string, PromptEntry>();
  private readonly resourceIndex = new Map<string, ResourceEntry>();
  private readonly ruled = new Set<CatalogList>();
  private readonly scopedTemplates: boolean;

  constructor(
    providers: readonly Provider[],
    lists: ReadonlyMap<Provider, ProviderLists>,
    validators: ValidatorCache,
    rules?: VisibilityRules,
    scopes?: ScopeRules,
    shaping?: CatalogShaping,
  ) {
    let scopedTemplates = false;
    const tools: ToolEntry[] = [];
    const callable: ToolEntry[] = [];
    const problems: ToolTransformError[] = [];
    const prompts: PromptEntry[] = [];
    const resources: ResourceEntry[] = [];
    const templates: TemplateEntry[] = [];
    for (const provider of providers) {
      const list = lists.get(provider);
      if (!list) continue;
      for (const definition of list.tools) {
        const shaped = shapeTool(shaping, definition);
        if (shaped.kind === 'refused') {
          problems.push(shaped.error);
          continue;
        }
        const original = this.toolEntry(provider, definition, validators, shaping);
        const needs = scopes?.of(definition) ?? provider.callScopes?.('tool', definition.name);
        const offered: [ToolEntry, readonly string[] | undefined][] = [];
        if (shaped.kind === 'original' || shaped.keepOriginal) offered.push([original, needs]);
        if (shaped.kind === 'derived') {
          const derived = new DerivedToolProvider(
            { provider, name: definition.name, validate: original.validate, task: original.task },
            shaped.derived,
          );
          const extra = shaping?.transformOf(definition.name)?.scopes ?? [];
          offered.push([
            this.toolEntry(derived, shaped.derived.definition, validators, shaping),
            [...new Set([...(needs ?? []), ...extra])],
          ]);
        }
        for (const [entry, entryScopes] of offered) {
          if (this.toolIndex.has(entry.definition.name)) continue;
          this.rule(entry, 'tools', rules, definition);
          scope(entry, entryScopes);
          this.toolIndex.set(entry.definition.name, entry);
          callable.push(entry);
          if (entry.listed) tools.push(entry);
        }
      }
      for (const definition of list.prompts) {
        if (this.promptIndex.has(definition.name)) continue;
        const entry: PromptEntry = { definition, provider };
        this.rule(entry, 'prompts', rules);
        scope(entry, scopes?.of(definition) ?? provider.callScopes?.('prompt', definition.name));
        this.promptIndex.set(definition.name, entry);
        prompts.push(entry);
      }
      for (const definition of list.resources) {
        if (this.resourceIndex.has(definition.uri)) continue;
        const entry: ResourceEntry = { definition, provider };
        this.rule(entry, 'resources', rules);
        scope(entry, scopes?.of(definition) ?? provider.callScopes?.('resource', definition.uri));
        this.resourceIndex.set(definition.uri, entry);
        resources.push(entry);
      }
      for (const definition of list.templates) {
        const entry: TemplateEntry = { definition, provider };
        const ruled = this.rule(entry, 'templates', rules);
        const needs = scopes?.of(definition);
        scope(entry, needs ?? provider.callScopes?.('template', definition.uriTemplate));
        if (entry.scopes) scopedTemplates = true;
        if (ruled || entry.scopes) entry.compiled = compileTemplate(definition.uriTemplate);
        templates.push(entry);
      }
    }
    this.tools = tools;
    this.callableTools = callable;
    this.problems = problems;
    this.prompts = prompts;
    this.resources = resources;
    this.templates = templates;
    this.scopedTemplates = scopedTemplates;
    // Which template answers a URI is known only when every one can be matched.
    if (scopedTemplates)
      for (const entry of templates)
        entry.compiled ??= compileTemplate(entry.definition.uriTemplate);
  }

  /** The tool called `name`, whoever may see it (check `visible` with `seenBy`). */
  tool(name: string): ToolEntry | undefined {
    return this.toolIndex.get(name);
  }

  /** The prompt called `name`, whoever may see it. */
  prompt(name: string): PromptEntry | undefined {
    return this.promptIndex.get(name);
  }

  /** The resource at `uri`, whoever may see it. */
  resource(uri: string): ResourceEntry | undefined {
    return this.resourceIndex.get(uri);
  }

  /** True when a list has visibility rules, so what it shows depends on the caller. */
  variesByCaller(list: CatalogList): boolean {
    return this.ruled.has(list);
  }

  /** True when `uri` is one of a template the caller may not see (and no template it may see). */
  hidesTemplatedUri(uri: string, principal: Principal | undefined): boolean {
    if (!this.ruled.has('templates')) return false;
    let hidden = false;
    for (const entry of this.templates) {
      if (entry.compiled === undefined || entry.compiled.match(uri) === undefined) continue;
      if (isVisible(entry.visible, principal)) return false;
      hidden = true;
    }
    return hidden;
  }

  /**
   * The scopes a read of `uri` needs through a template: those of the first template the caller
   * may see that matches it (the one a provider answers with), or undefined.
   */
  templateScopes(uri: string, principal: Principal | undefined): readonly string[] | undefined {
    if (!this.scopedTemplates) return undefined;
    for (const entry of this.templates) {
      if (entry.compiled === undefined || !isVisible(entry.visible, principal)) continue;
      if (entry.compiled.match(uri) !== undefined) return entry.scopes;
    }
    return undefined;
  }

  /** The entry of a tool as its provider offers it. */
  private toolEntry(
    provider: Provider,
    definition: ToolDefinition,
    validators: ValidatorCache,
    shaping: CatalogShaping | undefined,
  ): ToolEntry {
    return {
      definition,
      provider,
      validate: validators.get(provider, definition),
      task: provider.taskSupport?.(definition.name) ?? NO_TASKS,
      listed: shaping
        ? shaping.lists(provider, definition.name)
        : provider.listsTool?.(definition.name) !== false,
    };
  }

  /** Sets the visibility rule `key` (default: the entry's descriptor) was registered with. */
  private rule(
    entry: Entry<object>,
    list: CatalogList,
    rules: VisibilityRules | undefined,
    key: object = entry.definition,
  ): boolean {
    const visible = rules?.of(key);
    if (visible === undefined) return false;
    entry.visible = visible;
    this.ruled.add(list);
    return true;
  }
}

/** Sets the scopes of an entry when there are any. */
function scope(entry: Entry<object>, scopes: readonly string[] | undefined): void {
  if (scopes !== undefined && scopes.length > 0) entry.scopes = scopes;
}

/** The entry, when it exists and `principal` may see it. */
export function seenBy<E extends { visible?: Visibility }>(
  entry: E | undefined,
  principal: Principal | undefined,
): E | undefined {
  return entry !== undefined && isVisible(entry.visible, principal) ? entry : undefined;
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
    const compiled = compileArgumentValidator(definition.inputSchema, `tool "${definition.name}"`);
    this.byDefinition.set(definition, compiled);
    return compiled;
  }
}

/** Reads every list of a provider at once. */
export async function readLists(provider: Provider): Promise<ProviderLists> {
  const [tools, prompts, resources, templates] = await Promise.all([
    provider.tools?.() ?? [],
    provider.prompts?.() ?? [],
    provider.resources?.() ?? [],
    provider.resourceTemplates?.() ?? [],
  ]);
  return { tools, prompts, resources, templates };
}

/** What the providers offer, for capability negotiation, over the catalog of their lists. */
export function capabilitiesOf(
  catalog: Catalog,
  providers: readonly Provider[],
): ServerCapabilitySet {
  const flags = providers.map((p) => p.capabilities?.() ?? {});
  return {
    tools: catalog.tools.length > 0 || providers.some((p) => p.tools !== undefined),
    prompts: catalog.prompts.length > 0,
    resources: catalog.resources.length > 0 || catalog.templates.length > 0,
    subscribe: flags.some((f) => f.subscribe === true),
    listChanged: flags.some((f) => f.listChanged === true),
    completions: providers.some(
      (p, i) => p.complete !== undefined && flags[i]!.completions !== false,
    ),
    extensions: providerExtensions(flags),
    tasks: flags.some((f) => f.tasks === true),
  };
}

/** The extensions providers announce, one object per id (two providers' settings merged). */
function providerExtensions(
  flags: readonly ProviderCapabilities[],
): Record<string, JsonObject> | undefined {
  let merged: Record<string, JsonObject> | undefined;
  for (const { extensions } of flags)
    for (const [id, settings] of Object.entries(extensions ?? {}))
      (merged ??= {})[id] = { ...merged[id], ...settings };
  return merged;
}
