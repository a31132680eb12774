import { RondoError } from './errors.js';
/**
 * The canonical result vocabulary, after the terms of Logtalk's `mcp_server` protocols. Every form is
 * a plain JSON object whose `kind` is the Logtalk functor name; that object is also its JSON
 * encoding (see `encoding.ts`), which the Prolog bridge carries unchanged.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A local error: a vocabulary value was built or decoded with the wrong shape. */
export class VocabularyError extends RondoError {
  override readonly code: string = 'protocol.vocabulary';
  override readonly name = 'VocabularyError';
}

export type Role = 'user' | 'assistant';

export interface Annotations {
  audience?: Role[];
  priority?: number;
  lastModified?: string;
}

export interface TextItem {
  kind: 'text';
  text: string;
  annotations?: Annotations;
}
/** Tool error text: as a tool result it sets `isError`. */
export interface ErrorItem {
  kind: 'error';
  text: string;
}
export interface ResourceLinkItem {
  kind: 'resource_link';
  uri: string;
  name: string;
  description?: string;
  mimeType?: string;
  title?: string;
  annotations?: Annotations;
}
export interface ImageItem {
  kind: 'image';
  data: string;
  mimeType: string;
  annotations?: Annotations;
}
export interface AudioItem {
  kind: 'audio';
  data: string;
  mimeType: string;
  annotations?: Annotations;
}
export interface EmbeddedResourceItem {
  kind: 'resource';
  contents: ResourceContent;
  annotations?: Annotations;
}
export type ContentItem =
  TextItem | ErrorItem | ResourceLinkItem | ImageItem | AudioItem | EmbeddedResourceItem;

export interface ResultsValue {
  kind: 'results';
  items: ContentItem[];
}
export interface StructuredValue {
  kind: 'structured';
  structured: Json;
  items?: ContentItem[];
}
/** What a tool returns: one content item, a list of them, or structured content. */
export type ToolResult = ContentItem | ResultsValue | StructuredValue;

export interface PromptMessage {
  kind: 'message';
  role: Role;
  content: ContentItem;
}
export interface MessagesValue {
  kind: 'messages';
  description?: string;
  messages: PromptMessage[];
}
/** What a prompt returns. */
export type PromptResult = MessagesValue;

export interface TextContent {
  kind: 'text_content';
  uri: string;
  mimeType?: string;
  text: string;
  meta?: JsonObject;
}
export interface BlobContent {
  kind: 'blob_content';
  uri: string;
  mimeType?: string;
  blob: string;
  meta?: JsonObject;
}
export type ResourceContent = TextContent | BlobContent;
export interface ContentsValue {
  kind: 'contents';
  contents: ResourceContent[];
}
/** What a resource read returns. */
export type ResourceResult = ContentsValue;

export interface FormElicitation {
  kind: 'form_elicitation';
  message: string;
  schema: JsonObject;
}
export interface UrlElicitation {
  kind: 'url_elicitation';
  message: string;
  url: string;
  elicitationId?: string;
}
export interface SamplingMessage {
  role: Role;
  content: ContentItem;
}
export interface SamplingRequest {
  kind: 'sampling';
  messages: SamplingMessage[];
  modelPreferences?: JsonObject;
  systemPrompt?: string;
  includeContext?: 'none' | 'thisServer' | 'allServers';
  maxTokens?: number;
  temperature?: number;
  stopSequences?: string[];
  tools?: JsonObject[];
  toolChoice?: JsonObject;
}
export interface RootsRequest {
  kind: 'roots';
}
export type InputRequestBody = FormElicitation | UrlElicitation | SamplingRequest | RootsRequest;
export interface InputRequest {
  kind: 'input_request';
  key: string;
  request: InputRequestBody;
}

export interface AcceptResponse {
  kind: 'accept';
  content: JsonObject;
}
export interface DeclineResponse {
  kind: 'decline';
}
export interface CancelResponse {
  kind: 'cancel';
}
export interface SamplingResponse {
  kind: 'sampling_result';
  role: Role;
  content: Json;
  model: string;
  stopReason?: string;
}
export interface RootsResponse {
  kind: 'roots_result';
  roots: { uri: string; name?: string }[];
}
export type InputResponseValue =
  AcceptResponse | DeclineResponse | CancelResponse | SamplingResponse | RootsResponse;

export interface CompleteValue<R> {
  kind: 'complete';
  result: R;
}
export interface InputRequiredValue {
  kind: 'input_required';
  requests: InputRequest[];
  state?: Json;
}
/** What a round hook returns: a finished result, or a request for client input. */
export type RoundResult<R> = CompleteValue<R> | InputRequiredValue;

/** Every vocabulary value. */
export type VocabularyValue =
  | ToolResult
  | PromptResult
  | PromptMessage
  | ResourceResult
  | ResourceContent
  | InputRequest
  | InputResponseValue
  | CompleteValue<ToolResult | PromptResult | ResourceResult>
  | InputRequiredValue;
