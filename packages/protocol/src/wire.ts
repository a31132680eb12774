import { RondoError } from './errors.js';
import type {
  ContentItem,
  InputRequestBody,
  InputResponseValue,
  Json,
  JsonObject,
  PromptResult,
  ResourceContent,
  ResourceResult,
  ToolResult,
} from './vocabulary.js';
import { isPlainObject } from './jsonrpc.js';

/**
 * Conversions between vocabulary values and the JSON shapes both eras share (content blocks, tool,
 * prompt and resource results). Era-specific members (`resultType`, cache fields) are added by the
 * adapters.
 */

/** A content block on the wire. */
export type WireContent = Record<string, unknown>;

/** The wire form of one resource content. */
export function resourceContentToWire(content: ResourceContent): Record<string, unknown> {
  const wire: Record<string, unknown> = { uri: content.uri };
  if (content.mimeType !== undefined) wire.mimeType = content.mimeType;
  if (content.kind === 'text_content') wire.text = content.text;
  else wire.blob = content.blob;
  if (content.meta !== undefined) wire._meta = content.meta;
  return wire;
}

/** The wire form of one content item (`error(E)` becomes a text block). */
export function contentItemToWire(item: ContentItem): WireContent {
  switch (item.kind) {
    case 'text':
      return withAnnotations({ type: 'text', text: item.text }, item.annotations);
    case 'error':
      return { type: 'text', text: item.text };
    case 'image':
      return withAnnotations(
        { type: 'image', data: item.data, mimeType: item.mimeType },
        item.annotations,
      );
    case 'audio':
      return withAnnotations(
        { type: 'audio', data: item.data, mimeType: item.mimeType },
        item.annotations,
      );
    case 'resource':
      return withAnnotations(
        { type: 'resource', resource: resourceContentToWire(item.contents) },
        item.annotations,
      );
    case 'resource_link': {
      const { kind: _kind, annotations, ...rest } = item;
      return withAnnotations({ type: 'resource_link', ...rest }, annotations);
    }
  }
}

function withAnnotations(block: WireContent, annotations: unknown): WireContent {
  return annotations === undefined ? block : { ...block, annotations };
}

/** The era-neutral members of a `tools/call` result. */
export function toolResultToWire(result: ToolResult): Record<string, unknown> {
  switch (result.kind) {
    case 'results':
      return withErrorFlag({ content: result.items.map(contentItemToWire) }, result.items);
    case 'structured': {
      const items = result.items ?? [{ kind: 'text', text: JSON.stringify(result.structured) }];
      const wire = { content: items.map(contentItemToWire), structuredContent: result.structured };
      return withErrorFlag(wire, items);
    }
    case 'error':
      return { content: [contentItemToWire(result)], isError: true };
    case 'text':
    case 'image':
    case 'audio':
    case 'resource':
    case 'resource_link':
      return { content: [contentItemToWire(result)] };
  }
}

/** Sets `isError` when any of the items is an `error(E)`. */
function withErrorFlag(
  wire: Record<string, unknown>,
  items: readonly ContentItem[],
): Record<string, unknown> {
  return items.some((item) => item.kind === 'error') ? { ...wire, isError: true } : wire;
}

/** The era-neutral members of a `prompts/get` result. */
export function promptResultToWire(result: PromptResult): Record<string, unknown> {
  const wire: Record<string, unknown> = {
    messages: result.messages.map((m) => ({ role: m.role, content: contentItemToWire(m.content) })),
  };
  if (result.description !== undefined) wire.description = result.description;
  return wire;
}

/** The era-neutral members of a `resources/read` result. */
export function resourceResultToWire(result: ResourceResult): Record<string, unknown> {
  return { contents: result.contents.map(resourceContentToWire) };
}

/**
 * An input request as the 2026-07-28 wire carries it (in `input_required` results and in tasks):
 * URL elicitations have no `elicitationId` there.
 */
export function modernInputRequestToWire(body: InputRequestBody): {
  method: string;
  params: Record<string, unknown>;
} {
  const wire = inputRequestToWire(body);
  if (body.kind === 'url_elicitation') delete wire.params.elicitationId;
  return wire;
}

/** The JSON-RPC method and params of the client request that answers an input request. */
export function inputRequestToWire(body: InputRequestBody): {
  method: string;
  params: Record<string, unknown>;
} {
  switch (body.kind) {
    case 'form_elicitation':
      return {
        method: 'elicitation/create',
        params: { mode: 'form', message: body.message, requestedSchema: body.schema },
      };
    case 'url_elicitation':
      return {
        method: 'elicitation/create',
        params: {
          mode: 'url',
          message: body.message,
          url: body.url,
          elicitationId: body.elicitationId ?? body.url,
        },
      };
    case 'sampling': {
      const { kind: _kind, messages, maxTokens, ...rest } = body;
      return {
        method: 'sampling/createMessage',
        params: {
          messages: messages.map((m) => ({ role: m.role, content: contentItemToWire(m.content) })),
          maxTokens: maxTokens ?? 1000,
          ...rest,
        },
      };
    }
    case 'roots':
      return { method: 'roots/list', params: {} };
  }
}

/** A local error: a client's answer to an input request has the wrong shape. */
export class InputResponseError extends RondoError {
  override readonly code: string = 'protocol.input-response';
  override readonly name = 'InputResponseError';
}

/**
 * Reads a client's answer (an elicitation, sampling or roots result) to the input request it
 * answers. Throws an {@link InputResponseError} when the answer has the wrong shape.
 */
export function inputResponseFromWire(body: InputRequestBody, result: unknown): InputResponseValue {
  if (!isPlainObject(result)) throw new InputResponseError('an input response must be an object');
  switch (body.kind) {
    case 'form_elicitation':
    case 'url_elicitation':
      return elicitResponseFromWire(result);
    case 'sampling':
      return samplingResponseFromWire(result);
    case 'roots':
      return rootsResponseFromWire(result);
  }
}

function elicitResponseFromWire(result: Record<string, unknown>): InputResponseValue {
  switch (result.action) {
    case 'accept': {
      const content = result.content ?? {};
      if (!isPlainObject(content))
        throw new InputResponseError('accepted elicitation content must be an object');
      return { kind: 'accept', content: content as JsonObject };
    }
    case 'decline':
      return { kind: 'decline' };
    case 'cancel':
      return { kind: 'cancel' };
    default:
      throw new InputResponseError(
        'an elicitation response needs action accept, decline or cancel',
      );
  }
}

function samplingResponseFromWire(result: Record<string, unknown>): InputResponseValue {
  const { role, content, model, stopReason } = result;
  if (
    (role !== 'user' && role !== 'assistant') ||
    typeof model !== 'string' ||
    content === undefined
  ) {
    throw new InputResponseError('a sampling response needs role, content and model');
  }
  const response: InputResponseValue = {
    kind: 'sampling_result',
    role,
    content: content as Json,
    model,
  };
  if (typeof stopReason === 'string') response.stopReason = stopReason;
  return response;
}

function rootsResponseFromWire(result: Record<string, unknown>): InputResponseValue {
  const roots = result.roots;
  if (!Array.isArray(roots) || !roots.every((r) => isPlainObject(r) && typeof r.uri === 'string')) {
    throw new InputResponseError('a roots response needs a list of roots with a uri each');
  }
  return {
    kind: 'roots_result',
    roots: roots.map((r: Record<string, unknown>) =>
      typeof r.name === 'string'
        ? { uri: r.uri as string, name: r.name }
        : { uri: r.uri as string },
    ),
  };
}
