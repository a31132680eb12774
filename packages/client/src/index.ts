export { Client } from './mcpClient.js';
export type { ClientOptions } from './client.js';
export type { ServerFacts, EraChoice } from './negotiate.js';
export { forgetNegotiatedEras } from './negotiate.js';
export type { ClientHandlers, HandlerContext } from './handlers.js';
export type { CallOptions } from './rpc.js';
export type { AnswerReceiver, ProgressUpdate } from './pending.js';
export type { ClientEvents, ClientEventName } from './events.js';
export { Subscription, type SubscriptionTargets } from './subscription.js';
export { ToolTask, TaskEndedError, type TaskState, type TaskWaitOptions } from './tasks.js';
export { walkPages, DEFAULT_MAX_PAGES } from './pagination.js';
export { ClientSkills } from './skills/clientSkills.js';
export { ClientEventsExtension, type PollRequest } from './events/clientEventsExtension.js';
export { EventStream, type EventStreamOptions } from './events/eventStream.js';
export {
  verifyWebhookDelivery,
  generateWebhookSecret,
  type ReceivedHeaders,
  type VerifiedDelivery,
  type WebhookVerdict,
} from './events/webhookReceiver.js';
export type {
  WebhookSubscribeRequest,
  WebhookUnsubscribeRequest,
  WebhookSubscription,
} from './events/webhookWire.js';
export {
  EVENTS_EXTENSION,
  type EventOccurrence,
  type EventSubscription,
  type EventTypeDescriptor,
  type EventTypesPage,
  type PollResult,
} from './events/eventWire.js';
export { LoadedSkill } from './skills/loadedSkill.js';
export type { SkillFile } from './skills/verify.js';
export {
  SKILLS_EXTENSION,
  MAX_SKILL_FILES,
  MAX_SKILL_BYTES,
  type Skill,
  type SkillResource,
  type SkillFrontmatter,
  type SkillsPage,
  type DirectoryPage,
} from './skills/entries.js';
export type {
  Page,
  ToolsPage,
  PromptsPage,
  ResourcesPage,
  ResourceTemplatesPage,
  CallToolResult,
  GetPromptResult,
  ReadResourceResult,
  CompleteResult,
} from './types.js';
export {
  McpError,
  ClientError,
  TransportError,
  HttpAuthError,
  RequestTimeoutError,
  RequestAbortedError,
  ServerExitedError,
  ProtocolViolationError,
  TooManyPendingRequestsError,
  ClientStateError,
  InputRoundsExceededError,
  SkillVerificationError,
  NotDeclaredByServerError,
  type SkillFailure,
} from './errors.js';
export type { ClientTransport, TransportSink, SendContext } from './transport.js';
export { DEFAULT_MAX_FRAME_BYTES, DEFAULT_MAX_DEPTH, type FrameLimits } from './frames.js';
export type { HttpAuthorizer } from './http/authorizer.js';
export {
  httpTransport,
  type HttpTransportOptions,
  type HttpClientTransport,
} from './http/streamableHttp.js';
export { sseTransport, type SseTransportOptions } from './http/legacySse.js';
export { inMemoryTransport } from './transports/memory.js';
export {
  readServerCard,
  readCatalog,
  type ServerCard,
  type CatalogEntry,
  type DiscoveryOptions,
} from './discovery/serverCards.js';
export {
  oauth,
  clientCredentials,
  tokenExchange,
  isSecureAuthorizationUrl,
  workloadIdentity,
  enterpriseManaged,
  memoryTokenStore,
  OAuthError,
  OAuthResponseError,
  OAuthDiscoveryError,
  OAuthResourceMismatchError,
  OAuthIssuerMismatchError,
  OAuthRegistrationError,
  OAuthAuthorizationError,
  OAuthTokenError,
} from './oauth/index.js';
export type {
  OAuthOptions,
  OAuthCommonOptions,
  ClientCredentialsOptions,
  TokenExchangeOptions,
  WorkloadIdentityOptions,
  EnterpriseManagedOptions,
  IdentityProvider,
  AssertionSource,
  DpopKeyPair,
  RedirectHandler,
  PrivateKeyJwtKey,
  PreRegisteredClient,
  TokenStore,
  OAuthTokens,
  OAuthClientInformation,
} from './oauth/index.js';
