export { createServer, RondoServer } from './server.js';
export type { ServerRuntime } from './runtime.js';
export type {
  ServerInfo,
  ServerOptions,
  CatalogOptions,
  ToolSpec,
  PromptSpec,
  PromptArgsOf,
  PromptArguments,
  ServerCapabilitySet,
  ServerChange,
  ServerLogMessage,
  ResourceSpec,
  TemplateSpec,
} from './serverTypes.js';
export type { ChangeListener, LogListener } from './serverChanges.js';
export {
  text,
  error,
  results,
  structured,
  resourceLink,
  image,
  audio,
  embeddedResource,
  message,
  messages,
  contents,
  textContent,
  blobContent,
  complete,
  inputRequired,
  assertInputRequired,
  inputRequest,
  formElicitation,
  urlElicitation,
  sampling,
  roots,
  accept,
  decline,
  cancel,
} from '@rondo/protocol';
export { createEndpoint, type EndpointOptions } from './endpoint.js';
export {
  SERVER_CARD_PATH,
  SERVER_CARD_SUFFIX,
  SERVER_CARD_MEDIA_TYPE,
  SERVER_CARD_SCHEMA,
  MCP_CATALOG_PATHS,
  serverCard,
  type ServerCardOptions,
  type ServerCardRemote,
} from './serverCard.js';
export { catalogIdentifier, type CatalogEntry } from './serverCatalog.js';
export {
  extensionMethod,
  type Extension,
  type ExtensionCall,
  type ExtensionMethod,
  type HttpRoute,
  type ListenPart,
  type RoundTakeover,
  type RouteReply,
  type RouteRequest,
} from './extension.js';
export type { RequestAttachment } from './pipeline/call.js';
export {
  isListResult,
  type ListResult,
  type McpCall,
  type McpNext,
  type McpResult,
  type Middleware,
} from './middleware.js';
export { requireScopes, type Visibility } from './visibility.js';
export { INSUFFICIENT_SCOPE, InsufficientScopeError, demandScopes } from './callScopes.js';
export { RATE_LIMITED, RateLimitedError } from './rateLimited.js';
export type {
  Connection,
  Disposition,
  Endpoint,
  Exchange,
  Peer,
  PeerSendOptions,
} from './transport.js';
export type { EndpointFacts, EraAdapter, EraSession } from './era.js';
export {
  CONNECTION_LIMIT_DEFAULTS,
  type ConnectionLimits,
  type ListenOptions,
  type ListeningServer,
} from './listening.js';
export type {
  Provider,
  CallScopeKind,
  ProviderCapabilities,
  ProviderChange,
  ToolOutcome,
  PromptOutcome,
  ResourceOutcome,
} from './provider.js';
export { LOG_LEVELS, type HandlerContext, type LogLevel } from './context.js';
export type { Cancellation } from './cancellation.js';
export type {
  Arguments,
  CacheableMethod,
  CachePolicy,
  CompletionRef,
  CompletionRequest,
  CompletionResult,
  Icon,
  Principal,
  PromptArgument,
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolAnnotations,
  ToolDefinition,
} from './definitions.js';
export type {
  ToolHandler,
  PromptHandler,
  ResourceHandler,
  TemplateHandler,
  CompletionHandler,
} from './localProvider.js';
export {
  Catalog,
  type ToolEntry,
  type PromptEntry,
  type ResourceEntry,
  type TemplateEntry,
} from './catalog.js';
export {
  RequestStateSealer,
  type RequestStateOptions,
  type SealedStateBinding,
  type OpenedState,
} from './requestState.js';
export {
  MIN_STATE_KEY_BYTES,
  SINGLE_STATE_KEY_ID,
  parseStateKeys,
  type StateKey,
} from './stateKeys.js';
export type { SchemaInput, ArgumentCheck, ArgumentValidator } from './inputValidation.js';
export type { StandardIssue, StandardResult, StandardSchema } from './standardSchema.js';
export { TOOL_NAME_RULE, ToolDefinitionError, type ToolRule } from './toolRules.js';
export { PromptDefinitionError } from './promptSpec.js';
export {
  ToolTransformError,
  checkToolTransform,
  deriveTool,
  type ArgumentTransform,
  type DerivedTool,
  type OutputPick,
  type OutputReshape,
  type ToolTransform,
} from './catalogs/toolTransform.js';
export { TOOL_SEARCH_LIMIT, type ToolSearchOptions } from './catalogs/toolSearchProvider.js';
export { ToolSearchIndex, type Ranked } from './catalogs/searchIndex.js';
export { MountConflictError, type ItemOrigin } from './mount/mountTable.js';
export { NAMESPACE_SEPARATOR, type ItemKind, type MountOptions } from './mount/naming.js';
export { DEFAULT_MAX_ARGUMENT_DEPTH, DEFAULT_MAX_PAGE_BYTES, type ServerLimits } from './limits.js';
export {
  ConfigurationError,
  ClientRequestError,
  MissingClientCapabilityError,
  RoundLimitError,
  SharedStateError,
  StoreLimitError,
  TokenRejectedError,
  type TokenRejectionReason,
} from './errors.js';
export type { TokenVerifier, VerifiedToken, DpopProofVerifier, ProofRequest } from './tokens.js';
export {
  verifyBearer,
  metadataUrlFor,
  isMetadataPath,
  metadataDocument,
  type BearerVerdict,
  type OAuthResourceOptions,
  type DpopResourceOptions,
  type RequestProofContext,
} from './bearerAuth.js';
export { presentedToken } from './presentedTokens.js';
export {
  checkHostAndOrigin,
  countHostLines,
  parseAllowedHosts,
  resolveHostGuard,
  type HostGuardOptions,
  type HostGuardPolicy,
  type HostGuardFacts,
  type HostGuardVerdict,
  type HostRule,
} from './hostGuard.js';
export { clientAddress } from './clientAddress.js';
export { DEFAULT_IPV6_CLIENT_PREFIX, checkIpv6Prefix, clientKeyOfAddress } from './clientKey.js';
export { modernErrorDisposition } from './errorDisposition.js';
export type { TaskDeclaration, TaskSupport } from './taskSupport.js';
export type {
  AppendOptions,
  Awaitable,
  EventStore,
  ReplayedEvents,
  StoredEvent,
} from './shared/eventStore.js';
export {
  MEMORY_EVENT_STORE_DEFAULTS,
  createMemoryEventStore,
  type MemoryEventStore,
  type MemoryEventStoreOptions,
} from './shared/memoryEventStore.js';
export { streamKeyOf, type SessionRecord, type SessionStore } from './shared/sessionStore.js';
export { MemorySessionStore, type MemorySessionStoreOptions } from './shared/memorySessionStore.js';
export type { ChangeBus, PublishedChange } from './shared/changeBus.js';
export type { SessionRelay } from './shared/sessionRelay.js';
export { MemoryChangeBus, MemorySessionRelay } from './shared/memoryChannels.js';
export type { SharedState } from './shared/sharedState.js';
export type {
  RateLimitStore,
  RateRule,
  RateVerdict,
  ResponseCacheStore,
} from './shared/policyStores.js';
export {
  DEFAULT_MAX_USED_STATES,
  MemoryUsedStateStore,
  type UsedStateStore,
} from './shared/usedStates.js';
