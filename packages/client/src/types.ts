import type {
  ContentBlock,
  Prompt,
  Resource,
  ResourceContents,
  ResourceTemplate,
  Tool,
  WirePromptMessage,
  Completion,
} from '@rondo/protocol';

/** A page of a list, with the cursor of the next page when there is one. */
export interface Page {
  readonly nextCursor?: string | undefined;
  /** The rest of the result as the server sent it (`ttlMs`, `cacheScope`, `_meta`). */
  readonly [member: string]: unknown;
}

/** A page of `tools/list`. */
export interface ToolsPage extends Page {
  readonly tools: Tool[];
}

/** A page of `prompts/list`. */
export interface PromptsPage extends Page {
  readonly prompts: Prompt[];
}

/** A page of `resources/list`. */
export interface ResourcesPage extends Page {
  readonly resources: Resource[];
}

/** A page of `resources/templates/list`. */
export interface ResourceTemplatesPage extends Page {
  readonly resourceTemplates: ResourceTemplate[];
}

/** A finished tool call, in either era. */
export interface CallToolResult {
  readonly content: ContentBlock[];
  /** An object in the legacy era, any JSON value in the modern era. */
  readonly structuredContent?: unknown;
  readonly isError?: boolean | undefined;
  readonly [member: string]: unknown;
}

/** A prompt's messages. */
export interface GetPromptResult {
  readonly description?: string | undefined;
  readonly messages: WirePromptMessage[];
  readonly [member: string]: unknown;
}

/** A resource's contents. */
export interface ReadResourceResult {
  readonly contents: ResourceContents[];
  readonly [member: string]: unknown;
}

/** The answer to `completion/complete`. */
export interface CompleteResult {
  readonly completion: Completion;
  readonly [member: string]: unknown;
}
