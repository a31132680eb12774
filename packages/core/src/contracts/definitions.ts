import type { Json, JsonObject } from '@rondo/protocol';

/**
 * Era-neutral descriptors of what a server offers. Their members use the wire names shared by all
 * revisions; adapters drop what a revision does not know.
 */

/** An icon, as revisions from 2025-11-25 describe them. */
export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A tool as listed by `tools/list`. `inputSchema` is a JSON Schema (2020-12) object. */
export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: JsonObject;
}

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

/** A prompt as listed by `prompts/list`. */
export interface PromptDefinition {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: JsonObject;
}

/** A concrete resource as listed by `resources/list`. */
export interface ResourceDefinition {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: JsonObject;
  icons?: Icon[];
  _meta?: JsonObject;
}

/** A resource template (RFC 6570) as listed by `resources/templates/list`. */
export interface ResourceTemplateDefinition {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: JsonObject;
  icons?: Icon[];
  _meta?: JsonObject;
}

/** What a completion request refers to. */
export type CompletionRef =
  { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/** The argument being completed, and the values of the other arguments already chosen. */
export interface CompletionRequest {
  ref: CompletionRef;
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> };
}

export interface CompletionResult {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/** How long a client may reuse a result, and who may share it. */
export interface CachePolicy {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}

/** The methods whose results carry a cache policy on the modern wire. */
export type CacheableMethod =
  | 'server/discover'
  | 'tools/list'
  | 'prompts/list'
  | 'resources/list'
  | 'resources/templates/list'
  | 'resources/read';

/** Who made a request, as verified by the transport (an OAuth token, say). */
export interface Principal {
  id: string;
  scopes?: string[];
  /** The OAuth client the token was issued to (`client_id` / `azp`), when the verifier knows it. */
  clientId?: string;
  claims?: JsonObject;
}

/** Arguments of a tool call or prompt get after the wire: JSON values by name. */
export type Arguments = Record<string, Json>;

/** Whether a tool runs as a task: never (the default), when the client can, or only as one. */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

/** A tool's task support, with when its task starts. */
export interface TaskDeclaration {
  readonly support: TaskSupport;
  /**
   * The first call runs inside its request, so a round asking for input is an ordinary
   * multi round-trip (`input_required`) answer; the task starts with the retry that brings the
   * answers. Without it the task starts with the first call.
   */
  readonly startsAfterInput?: boolean;
}
