import {
  VocabularyError,
  type AcceptResponse,
  type Annotations,
  type AudioItem,
  type BlobContent,
  type CancelResponse,
  type CompleteValue,
  type ContentItem,
  type ContentsValue,
  type DeclineResponse,
  type EmbeddedResourceItem,
  type ErrorItem,
  type FormElicitation,
  type ImageItem,
  type InputRequest,
  type InputRequestBody,
  type InputRequiredValue,
  type Json,
  type JsonObject,
  type MessagesValue,
  type PromptMessage,
  type ResourceContent,
  type ResourceLinkItem,
  type ResultsValue,
  type Role,
  type RootsRequest,
  type SamplingRequest,
  type StructuredValue,
  type TextContent,
  type TextItem,
  type UrlElicitation,
} from './vocabulary.js';

/** `text(T)`: a text content item (or a text tool result). */
export function text(value: string, annotations?: Annotations): TextItem {
  return annotations ? { kind: 'text', text: value, annotations } : { kind: 'text', text: value };
}

/** `error(E)`: a tool execution error (`isError: true`) with a text explanation. */
export function error(message: string): ErrorItem {
  return { kind: 'error', text: message };
}

/** `results(Items)`: a tool result made of several content items. */
export function results(items: ContentItem[]): ResultsValue {
  return { kind: 'results', items };
}

/** `structured(SC)` / `structured(Items, SC)`: structured content, with optional content items. */
export function structured(value: Json, items?: ContentItem[]): StructuredValue {
  return items
    ? { kind: 'structured', structured: value, items }
    : { kind: 'structured', structured: value };
}

/** `resource_link(URI, Name[, Description, MimeType])`. */
export function resourceLink(
  uri: string,
  name: string,
  extra: Omit<ResourceLinkItem, 'kind' | 'uri' | 'name'> = {},
): ResourceLinkItem {
  return { kind: 'resource_link', uri, name, ...extra };
}

/** `image(Base64, Mime)`. */
export function image(data: string, mimeType: string, annotations?: Annotations): ImageItem {
  return annotations
    ? { kind: 'image', data, mimeType, annotations }
    : { kind: 'image', data, mimeType };
}

/** `audio(Base64, Mime)`. */
export function audio(data: string, mimeType: string, annotations?: Annotations): AudioItem {
  return annotations
    ? { kind: 'audio', data, mimeType, annotations }
    : { kind: 'audio', data, mimeType };
}

/** `resource(Contents)`: an embedded resource content item. */
export function embeddedResource(
  contents: ResourceContent,
  annotations?: Annotations,
): EmbeddedResourceItem {
  return annotations ? { kind: 'resource', contents, annotations } : { kind: 'resource', contents };
}

/** `message(Role, Content)`: one prompt message; a string content means `text(Content)`. */
export function message(role: Role, content: ContentItem | string): PromptMessage {
  return { kind: 'message', role, content: typeof content === 'string' ? text(content) : content };
}

/** `messages(Ms)` / `messages(Description, Ms)`: a prompt result. */
export function messages(list: PromptMessage[], description?: string): MessagesValue {
  return description === undefined
    ? { kind: 'messages', messages: list }
    : { kind: 'messages', description, messages: list };
}

/** `contents(Cs)`: a resource read result. */
export function contents(list: ResourceContent[]): ContentsValue {
  return { kind: 'contents', contents: list };
}

/** `text_content(URI, Mime, Text[, Meta])`. */
export function textContent(
  uri: string,
  mimeType: string | undefined,
  value: string,
  meta?: JsonObject,
): TextContent {
  const content: TextContent = { kind: 'text_content', uri, text: value };
  if (mimeType !== undefined) content.mimeType = mimeType;
  if (meta !== undefined) content.meta = meta;
  return content;
}

/** `blob_content(URI, Mime, Base64[, Meta])`. */
export function blobContent(
  uri: string,
  mimeType: string | undefined,
  blob: string,
  meta?: JsonObject,
): BlobContent {
  const content: BlobContent = { kind: 'blob_content', uri, blob };
  if (mimeType !== undefined) content.mimeType = mimeType;
  if (meta !== undefined) content.meta = meta;
  return content;
}

/** `complete(Result)`: a round hook's finished result. */
export function complete<R>(result: R): CompleteValue<R> {
  return { kind: 'complete', result };
}

/**
 * `input_required(Requests, State)`: ask the client for input, then be called again with the
 * answers and the state. Needs a nonempty request list or a state; keys must be unique.
 */
export function inputRequired(requests: InputRequest[], state?: Json): InputRequiredValue {
  assertInputRequired(requests, state);
  return state === undefined
    ? { kind: 'input_required', requests }
    : { kind: 'input_required', requests, state };
}

/** Throws a `VocabularyError` unless the requests and state form a valid `input_required`. */
export function assertInputRequired(
  requests: readonly InputRequest[],
  state: Json | undefined,
): void {
  if (requests.length === 0 && state === undefined) {
    throw new VocabularyError('input_required needs at least one input request or a state');
  }
  const keys = new Set<string>();
  for (const request of requests) {
    if (request.key.length === 0) throw new VocabularyError('input request keys must be nonempty');
    if (keys.has(request.key))
      throw new VocabularyError(`duplicate input request key "${request.key}"`);
    keys.add(request.key);
  }
}

/** `input_request(Key, R)`. */
export function inputRequest(key: string, request: InputRequestBody): InputRequest {
  return { kind: 'input_request', key, request };
}

/** `form_elicitation(Message, Schema)`: ask the user to fill a form (a flat JSON Schema object). */
export function formElicitation(message: string, schema: JsonObject): FormElicitation {
  return { kind: 'form_elicitation', message, schema };
}

/** `url_elicitation(Message, URL)`: send the user to a URL. */
export function urlElicitation(
  message: string,
  url: string,
  elicitationId?: string,
): UrlElicitation {
  return elicitationId === undefined
    ? { kind: 'url_elicitation', message, url }
    : { kind: 'url_elicitation', message, url, elicitationId };
}

/** `sampling(Messages, ModelPreferences, SystemPrompt, IncludeContext)`: ask the client's model. */
export function sampling(
  list: SamplingRequest['messages'],
  options: Omit<SamplingRequest, 'kind' | 'messages'> = {},
): SamplingRequest {
  return { kind: 'sampling', messages: list, ...options };
}

/** `roots`: ask the client for its roots. */
export function roots(): RootsRequest {
  return { kind: 'roots' };
}

/** `accept(Content)`: the user accepted an elicitation with this content. */
export function accept(content: JsonObject = {}): AcceptResponse {
  return { kind: 'accept', content };
}

/** `decline`: the user declined. */
export function decline(): DeclineResponse {
  return { kind: 'decline' };
}

/** `cancel`: the user dismissed the request. */
export function cancel(): CancelResponse {
  return { kind: 'cancel' };
}
