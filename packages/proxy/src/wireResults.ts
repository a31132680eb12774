import {
  ErrorCode,
  McpError,
  isPlainObject,
  type Annotations,
  type ContentItem,
  type InputRequestBody,
  type InputResponseValue,
  type Json,
  type JsonObject,
  type PromptResult,
  type ResourceContent,
  type ResourceResult,
  type Role,
  type ToolResult,
} from '@rondo/protocol';

/**
 * Conversions between an upstream server's wire results and the canonical vocabulary a provider
 * answers in. Everything here reads untrusted JSON: a shape that does not fit is an `McpError`
 * naming the upstream's fault, never a crash.
 */

/** An upstream answer that does not have the shape its method promises. */
function malformed(what: string): McpError {
  return new McpError(ErrorCode.InternalError, `The upstream server sent a malformed ${what}`);
}

function annotationsOf(block: Record<string, unknown>): { annotations?: Annotations } {
  return isPlainObject(block.annotations) ? { annotations: block.annotations } : {};
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

/** One resource content (`{uri, mimeType?, text | blob, _meta?}`). */
export function resourceContentFromWire(wire: unknown): ResourceContent {
  if (!isPlainObject(wire) || typeof wire.uri !== 'string') throw malformed('resource content');
  const base = typeof wire.mimeType === 'string' ? { mimeType: wire.mimeType } : {};
  const meta = isPlainObject(wire._meta) ? { meta: wire._meta as JsonObject } : {};
  if (typeof wire.text === 'string')
    return { kind: 'text_content', uri: wire.uri, ...base, text: wire.text, ...meta };
  if (typeof wire.blob === 'string')
    return { kind: 'blob_content', uri: wire.uri, ...base, blob: wire.blob, ...meta };
  throw malformed('resource content (neither text nor blob)');
}

/** One content block. A block type the vocabulary lacks becomes its JSON as text, so nothing is lost silently. */
export function contentItemFromWire(block: unknown): ContentItem {
  if (!isPlainObject(block)) throw malformed('content block');
  switch (block.type) {
    case 'text':
      return { kind: 'text', text: stringOr(block.text, ''), ...annotationsOf(block) };
    case 'image':
    case 'audio':
      return {
        kind: block.type,
        data: stringOr(block.data, ''),
        mimeType: stringOr(block.mimeType, 'application/octet-stream'),
        ...annotationsOf(block),
      };
    case 'resource':
      return {
        kind: 'resource',
        contents: resourceContentFromWire(block.resource),
        ...annotationsOf(block),
      };
    case 'resource_link': {
      if (typeof block.uri !== 'string') throw malformed('resource link');
      const link: ContentItem = {
        kind: 'resource_link',
        uri: block.uri,
        name: stringOr(block.name, block.uri),
      };
      for (const key of ['description', 'mimeType', 'title'] as const) {
        if (typeof block[key] === 'string') link[key] = block[key];
      }
      return { ...link, ...annotationsOf(block) };
    }
    default:
      return { kind: 'text', text: JSON.stringify(block) };
  }
}

function contentList(result: Record<string, unknown>): unknown[] {
  if (result.content === undefined) return [];
  if (!Array.isArray(result.content)) throw malformed('tool result (content is not a list)');
  return result.content;
}

/**
 * A `tools/call` result. An error result keeps its blocks, its text blocks becoming `error(...)`
 * items so the result stays an error on every wire.
 */
export function toolResultFromWire(result: Record<string, unknown>): ToolResult {
  let items = contentList(result).map(contentItemFromWire);
  if (result.isError === true) {
    items = items.map((item) => (item.kind === 'text' ? { kind: 'error', text: item.text } : item));
    if (!items.some((item) => item.kind === 'error'))
      items.unshift({ kind: 'error', text: 'Tool error' });
  }
  if (result.structuredContent !== undefined) {
    return { kind: 'structured', structured: result.structuredContent as Json, items };
  }
  return { kind: 'results', items };
}

/** A `prompts/get` result. */
export function promptResultFromWire(result: Record<string, unknown>): PromptResult {
  if (!Array.isArray(result.messages)) throw malformed('prompt result (no messages)');
  const messages = result.messages.map((message: unknown) => {
    if (!isPlainObject(message) || (message.role !== 'user' && message.role !== 'assistant')) {
      throw malformed('prompt message');
    }
    const role: Role = message.role === 'user' ? 'user' : 'assistant';
    return { kind: 'message' as const, role, content: contentItemFromWire(message.content) };
  });
  const value: PromptResult = { kind: 'messages', messages };
  if (typeof result.description === 'string') value.description = result.description;
  return value;
}

/** A `resources/read` result. */
export function resourceResultFromWire(result: Record<string, unknown>): ResourceResult {
  if (!Array.isArray(result.contents)) throw malformed('resource result (no contents)');
  return { kind: 'contents', contents: result.contents.map(resourceContentFromWire) };
}

/** What an upstream asks its client (`elicitation/create`, `sampling/createMessage`, `roots/list`), as an input request. */
export function inputRequestFromWire(method: string, params: unknown): InputRequestBody {
  const p = isPlainObject(params) ? params : {};
  switch (method) {
    case 'elicitation/create':
      if (p.mode === 'url' && typeof p.url === 'string') {
        const body: InputRequestBody = {
          kind: 'url_elicitation',
          message: stringOr(p.message, ''),
          url: p.url,
        };
        if (typeof p.elicitationId === 'string') body.elicitationId = p.elicitationId;
        return body;
      }
      if (!isPlainObject(p.requestedSchema)) throw malformed('elicitation request');
      return {
        kind: 'form_elicitation',
        message: stringOr(p.message, ''),
        schema: p.requestedSchema as JsonObject,
      };
    case 'sampling/createMessage':
      return samplingRequestFromWire(p);
    case 'roots/list':
      return { kind: 'roots' };
    default:
      throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
  }
}

const SAMPLING_OPTIONS = [
  'modelPreferences',
  'systemPrompt',
  'includeContext',
  'maxTokens',
  'temperature',
  'stopSequences',
  'tools',
  'toolChoice',
] as const;

function samplingRequestFromWire(params: Record<string, unknown>): InputRequestBody {
  if (!Array.isArray(params.messages)) throw malformed('sampling request');
  const body: Record<string, unknown> = {
    kind: 'sampling',
    messages: params.messages.map((message: unknown) => {
      if (!isPlainObject(message) || (message.role !== 'user' && message.role !== 'assistant')) {
        throw malformed('sampling message');
      }
      // A message may hold a list of blocks (2025-11-25); the vocabulary holds one, the first.
      const content: unknown = Array.isArray(message.content)
        ? (message.content as unknown[])[0]
        : message.content;
      return { role: message.role, content: contentItemFromWire(content) };
    }),
  };
  for (const key of SAMPLING_OPTIONS) if (params[key] !== undefined) body[key] = params[key];
  return body as unknown as InputRequestBody;
}

/** A downstream client's answer, as the wire result the upstream's pending request expects. */
export function inputResponseToWire(response: InputResponseValue): Record<string, unknown> {
  switch (response.kind) {
    case 'accept':
      return { action: 'accept', content: response.content };
    case 'decline':
    case 'cancel':
      return { action: response.kind };
    case 'sampling_result': {
      const { kind: _kind, ...rest } = response;
      return rest;
    }
    case 'roots_result':
      return { roots: response.roots };
  }
}
