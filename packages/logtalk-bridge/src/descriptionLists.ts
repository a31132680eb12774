import type {
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  TaskDeclaration,
  ToolDefinition,
} from '@rondo/core';
import type { JsonObject } from '@rondo/protocol';
import { taskDeclarationOf, type ProviderDescription } from './messages.js';
import { uiMetaByUri } from './ui.js';

/** The lists a description gives, converted once (they are read synchronously per request). */
export interface Lists {
  description: ProviderDescription;
  tools: ToolDefinition[];
  prompts: PromptDefinition[];
  resources: ResourceDefinition[];
  templates: ResourceTemplateDefinition[];
  known: Set<string>;
  /** `task_support/2` by tool name: not part of a descriptor, since the modern wire has no field for it. */
  tasks: Map<string, TaskDeclaration>;
  /** `tool_scopes/2` by tool name: what a call needs, apart from the descriptor clients see. */
  scopes: Map<string, readonly string[]>;
  /** The `+string` input arguments of each tool that has some (see `withPrologStrings`). */
  strings: Map<string, ReadonlySet<string>>;
  /** `resource_ui_meta/2` by URI: added to the contents a read of the resource gives. */
  ui: Map<string, JsonObject>;
}

/** Converts a provider's description into the lists and tables the server reads. */
export function listsOf(d: ProviderDescription): Lists {
  const resources = d.resources.map((r) => withoutUndefined<ResourceDefinition>(r));
  return {
    description: d,
    tools: d.tools.map(toolDefinition),
    prompts: d.prompts.map(promptDefinition),
    resources,
    templates: d.templates.map((t) => withoutUndefined<ResourceTemplateDefinition>(t)),
    known: new Set(resources.map((r) => r.uri)),
    tasks: new Map(d.tools.flatMap((tool) => taskDeclarationOf(tool))),
    scopes: new Map(
      d.tools.flatMap((tool) =>
        tool.requiredScopes?.length ? [[tool.name, tool.requiredScopes] as const] : [],
      ),
    ),
    ui: uiMetaByUri(d),
    strings: new Map(
      d.tools.flatMap((tool) =>
        tool.stringArguments?.length ? [[tool.name, new Set(tool.stringArguments)] as const] : [],
      ),
    ),
  };
}

function toolDefinition(tool: ProviderDescription['tools'][number]): ToolDefinition {
  const {
    taskSupport: _support,
    startsAfterInput: _after,
    requiredScopes: _scopes,
    stringArguments: _strings,
    ...definition
  } = tool;
  return withoutUndefined<ToolDefinition>(definition);
}

function promptDefinition(prompt: ProviderDescription['prompts'][number]): PromptDefinition {
  return withoutUndefined<PromptDefinition>({
    ...prompt,
    arguments: prompt.arguments.map((a) => withoutUndefined(a)),
  });
}

/** Drops members whose value is `undefined`, so definitions carry only what Prolog gave. */
export function withoutUndefined<T>(value: object): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
