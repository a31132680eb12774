import type {
  JsonObject,
  PromptResult,
  ResourceResult,
  RoundResult,
  ToolResult,
} from '@rondo/protocol';
import type { HandlerContext } from './context.js';
import type { McpCall } from './middleware.js';
import type { TaskDeclaration } from './taskSupport.js';
import type {
  Arguments,
  CacheableMethod,
  CachePolicy,
  CompletionRequest,
  CompletionResult,
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
} from './definitions.js';

/** What a tool call yields: a result (meaning complete) or a round result. */
export type ToolOutcome = ToolResult | RoundResult<ToolResult>;
export type PromptOutcome = PromptResult | RoundResult<PromptResult>;
export type ResourceOutcome = ResourceResult | RoundResult<ResourceResult>;

/** What kind of item {@link Provider.callScopes} is asked about. */
export type CallScopeKind = 'tool' | 'prompt' | 'resource' | 'template';

/** A change a provider announces: a list changed, or one resource's contents did. */
export type ProviderChange =
  { kind: 'tools' | 'prompts' | 'resources' } | { kind: 'resource'; uri: string };

/**
 * A source of tools, prompts and resources, after Logtalk's `mcp_server` protocols. Every member is
 * optional; a server aggregates any number of providers. Lists are read when the server starts and
 * again when the provider announces a change, never per request.
 */
export interface Provider {
  /** A name for logs and errors. */
  readonly name: string;
  /** Optional capabilities beyond what the lists imply (`capabilities/1`), e.g. `subscribe`. */
  capabilities?(): ProviderCapabilities;
  tools?(): ToolDefinition[] | Promise<ToolDefinition[]>;
  /**
   * False for a tool that is callable by name but left out of `tools/list` (a mounted server's
   * tool behind its tool search); absent or true: listed.
   */
  listsTool?(name: string): boolean;
  /** `task_support/2`: whether a tool runs as a task (`undefined` or absent: never). */
  taskSupport?(name: string): TaskDeclaration | undefined;
  /** `tool_call/3` and the round hook `tool_call_round/4`: arguments are already validated. */
  callTool?(name: string, args: Arguments, ctx: HandlerContext): Promise<ToolOutcome>;
  prompts?(): PromptDefinition[] | Promise<PromptDefinition[]>;
  /** `prompt_get/3` and `prompt_get_round/4`. */
  getPrompt?(
    name: string,
    args: Record<string, string>,
    ctx: HandlerContext,
  ): Promise<PromptOutcome>;
  resources?(): ResourceDefinition[] | Promise<ResourceDefinition[]>;
  resourceTemplates?(): ResourceTemplateDefinition[] | Promise<ResourceTemplateDefinition[]>;
  /** `resource_read/3` and `resource_read_round/4`; `undefined` when the provider has no such resource. */
  readResource?(uri: string, ctx: HandlerContext): Promise<ResourceOutcome | undefined>;
  /**
   * `completion/4`; `undefined` when the provider does not complete that argument. `call` is the
   * request as middleware sees it (absent outside a request pipeline).
   */
  complete?(request: CompletionRequest, call?: McpCall): Promise<CompletionResult | undefined>;
  /**
   * `call_scopes/3`: the scopes a call to one of the provider's items needs (a tool or prompt by
   * name, a resource by URI, a template by its URI template); `undefined` or empty: none. Read with
   * the lists.
   */
  callScopes?(kind: CallScopeKind, key: string): readonly string[] | undefined;
  /** `cache_policy/4`; `undefined` leaves the server's default. */
  cachePolicy?(method: CacheableMethod, key: string | undefined): CachePolicy | undefined;
  /** Registers a listener for changes; returns the function that removes it. */
  onChange?(listener: (change: ProviderChange) => void): () => void;
  /** Releases the provider's resources (processes, timers) when the server closes. */
  close?(): Promise<void>;
}

export interface ProviderCapabilities {
  /** The provider announces `resource` changes, so clients may subscribe. */
  subscribe?: boolean;
  /** The provider announces list changes. */
  listChanged?: boolean;
  /**
   * The provider completes arguments; default: it does when it has `complete`. False keeps the
   * `completions` capability off (and `completion/complete` at -32601) for a provider whose
   * `complete` exists but has nothing registered.
   */
  completions?: boolean;
  /**
   * Extensions the provider's items need announced, by id, with their settings (a Prolog
   * provider declaring `ui` announces `io.modelcontextprotocol/ui`). Merged into
   * `capabilities.extensions` of `initialize` and `server/discover`, under the settings of an
   * extension the server `use`s with the same id.
   */
  extensions?: Readonly<Record<string, JsonObject>>;
  /**
   * Calls of the provider's tools may become tasks that the provider keeps itself, outside the
   * server's task registry (a proxy passing its upstream's tasks through): the Tasks extension is
   * then announced on the modern wire though no tool declares task support.
   */
  tasks?: boolean;
}
