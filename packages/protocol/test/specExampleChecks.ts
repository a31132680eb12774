import type { z } from 'zod';
import { ErrorCode } from '../src/index.js';
import {
  AudioContentBlockSchema,
  BlobResourceContentsSchema,
  BooleanSchemaSchema,
  ClientCapabilitiesSchema,
  CreateMessageRequestParamsSchema,
  CreateMessageResultSchema,
  DiscoverResultSchema,
  ElicitRequestFormParamsSchema,
  ElicitRequestURLParamsSchema,
  ElicitResultSchema,
  EmbeddedResourceBlockSchema,
  ImageContentBlockSchema,
  InputRequestSchema,
  InputRequestsSchema,
  InputRequiredResultSchema,
  InputResponsesSchema,
  ListRootsResultSchema,
  LoggingMessageNotificationParamsSchema,
  ModelPreferencesSchema,
  ModernCallToolResultSchema,
  ModernCompleteResultSchema,
  ModernGetPromptResultSchema,
  ModernListPromptsResultSchema,
  ModernListResourceTemplatesResultSchema,
  ModernListResourcesResultSchema,
  ModernListToolsResultSchema,
  ModernReadResourceResultSchema,
  NumberSchemaSchema,
  ProgressNotificationParamsSchema,
  ResourceLinkBlockSchema,
  ResourceSchema,
  ResourceUpdatedNotificationParamsSchema,
  RootSchema,
  SamplingMessageSchema,
  ServerCapabilitiesSchema,
  StringSchemaSchema,
  SubscriptionsListenResultSchema,
  TextContentBlockSchema,
  TextResourceContentsSchema,
  TitledMultiSelectEnumSchemaSchema,
  TitledSingleSelectEnumSchemaSchema,
  ToolResultContentBlockSchema,
  ToolSchema,
  ToolUseContentBlockSchema,
  UntitledMultiSelectEnumSchemaSchema,
  UntitledSingleSelectEnumSchemaSchema,
} from '../src/internal.js';

/**
 * Which check each folder of the spec's 2026-07-28 examples gets: the schema that must accept it,
 * or the method whose table entry must. `specExamples.test.ts` fails on a folder missing here.
 */

/** Full client requests: the method each example folder must use. */
export const clientRequests: Readonly<Record<string, string>> = {
  DiscoverRequest: 'server/discover',
  ListToolsRequest: 'tools/list',
  CallToolRequest: 'tools/call',
  ListPromptsRequest: 'prompts/list',
  GetPromptRequest: 'prompts/get',
  ListResourcesRequest: 'resources/list',
  ListResourceTemplatesRequest: 'resources/templates/list',
  ReadResourceRequest: 'resources/read',
  CompleteRequest: 'completion/complete',
  SubscriptionsListenRequest: 'subscriptions/listen',
};

/** Bare client request params: every method whose params schema must accept them. */
export const clientRequestParams: Readonly<Record<string, readonly string[]>> = {
  RequestParams: ['server/discover'],
  PaginatedRequestParams: [
    'tools/list',
    'prompts/list',
    'resources/list',
    'resources/templates/list',
  ],
  CallToolRequestParams: ['tools/call'],
  GetPromptRequestParams: ['prompts/get'],
  ReadResourceRequestParams: ['resources/read'],
  CompleteRequestParams: ['completion/complete'],
  SubscriptionsListenRequestParams: ['subscriptions/listen'],
};

/** Client notifications (full messages) and their params. */
export const clientNotifications: Readonly<Record<string, string>> = {
  CancelledNotification: 'notifications/cancelled',
};
export const clientNotificationParams: Readonly<Record<string, string>> = {
  CancelledNotificationParams: 'notifications/cancelled',
};

/** Results the server sends, bare. */
export const serverResults: Readonly<Record<string, z.ZodType>> = {
  DiscoverResult: DiscoverResultSchema,
  ListToolsResult: ModernListToolsResultSchema,
  CallToolResult: ModernCallToolResultSchema,
  InputRequiredResult: InputRequiredResultSchema,
  ListPromptsResult: ModernListPromptsResultSchema,
  GetPromptResult: ModernGetPromptResultSchema,
  ListResourcesResult: ModernListResourcesResultSchema,
  ListResourceTemplatesResult: ModernListResourceTemplatesResultSchema,
  ReadResourceResult: ModernReadResourceResultSchema,
  CompleteResult: ModernCompleteResultSchema,
  SubscriptionsListenResult: SubscriptionsListenResultSchema,
};

/** Results the server sends, as JSON-RPC responses: the method they answer. */
export const serverResultResponses: Readonly<Record<string, string>> = {
  DiscoverResultResponse: 'server/discover',
  ListToolsResultResponse: 'tools/list',
  CallToolResultResponse: 'tools/call',
  ListPromptsResultResponse: 'prompts/list',
  GetPromptResultResponse: 'prompts/get',
  ListResourcesResultResponse: 'resources/list',
  ListResourceTemplatesResultResponse: 'resources/templates/list',
  ReadResourceResultResponse: 'resources/read',
  CompleteResultResponse: 'completion/complete',
  SubscriptionsListenResultResponse: 'subscriptions/listen',
};

/** Notifications the server sends (full messages; the method is in the example). */
export const serverNotifications = [
  'ProgressNotification',
  'LoggingMessageNotification',
  'ResourceUpdatedNotification',
  'ResourceListChangedNotification',
  'ToolListChangedNotification',
  'PromptListChangedNotification',
  'SubscriptionsAcknowledgedNotification',
] as const;

/** Every other example type: the schema that must accept it. */
export const buildingBlocks: Readonly<Record<string, z.ZodType>> = {
  ProgressNotificationParams: ProgressNotificationParamsSchema,
  LoggingMessageNotificationParams: LoggingMessageNotificationParamsSchema,
  ResourceUpdatedNotificationParams: ResourceUpdatedNotificationParamsSchema,
  TextContent: TextContentBlockSchema,
  ImageContent: ImageContentBlockSchema,
  AudioContent: AudioContentBlockSchema,
  ResourceLink: ResourceLinkBlockSchema,
  EmbeddedResource: EmbeddedResourceBlockSchema,
  TextResourceContents: TextResourceContentsSchema,
  BlobResourceContents: BlobResourceContentsSchema,
  ToolUseContent: ToolUseContentBlockSchema,
  ToolResultContent: ToolResultContentBlockSchema,
  Tool: ToolSchema,
  Resource: ResourceSchema,
  Root: RootSchema,
  ClientCapabilities: ClientCapabilitiesSchema,
  ServerCapabilities: ServerCapabilitiesSchema,
  StringSchema: StringSchemaSchema,
  NumberSchema: NumberSchemaSchema,
  BooleanSchema: BooleanSchemaSchema,
  UntitledSingleSelectEnumSchema: UntitledSingleSelectEnumSchemaSchema,
  TitledSingleSelectEnumSchema: TitledSingleSelectEnumSchemaSchema,
  UntitledMultiSelectEnumSchema: UntitledMultiSelectEnumSchemaSchema,
  TitledMultiSelectEnumSchema: TitledMultiSelectEnumSchemaSchema,
  ElicitRequest: InputRequestSchema,
  ElicitRequestFormParams: ElicitRequestFormParamsSchema,
  ElicitRequestURLParams: ElicitRequestURLParamsSchema,
  ElicitResult: ElicitResultSchema,
  CreateMessageRequest: InputRequestSchema,
  CreateMessageRequestParams: CreateMessageRequestParamsSchema,
  CreateMessageResult: CreateMessageResultSchema,
  SamplingMessage: SamplingMessageSchema,
  ModelPreferences: ModelPreferencesSchema,
  ListRootsRequest: InputRequestSchema,
  ListRootsResult: ListRootsResultSchema,
  InputRequests: InputRequestsSchema,
  InputResponses: InputResponsesSchema,
};

/** Error responses and error objects: the code each must carry. */
export const errorResponses: Readonly<Record<string, number>> = {
  HeaderMismatchError: ErrorCode.HeaderMismatch,
  MissingRequiredClientCapabilityError: ErrorCode.MissingClientCapability,
  UnsupportedProtocolVersionError: ErrorCode.UnsupportedProtocolVersion,
};
export const errorObjects: Readonly<Record<string, number>> = {
  ParseError: ErrorCode.ParseError,
  InvalidParamsError: ErrorCode.InvalidParams,
  MethodNotFoundError: ErrorCode.MethodNotFound,
  InternalError: ErrorCode.InternalError,
};

/**
 * Examples Rondo's schemas deliberately refuse. The official JSON schema accepts this one only
 * through `InputRequiredResult`, whose `resultType` is any string; as a finished result it lacks
 * the `ttlMs` and `cacheScope` that `ReadResourceResult` requires, and Rondo always sends them.
 */
export const refusedExamples: readonly { type: string; file: string; because: string }[] = [
  {
    type: 'ReadResourceResultResponse',
    file: 'read-resource-result-response.json',
    because: 'result.ttlMs: expected number',
  },
];
