/**
 * What Rondo's own packages share and users do not need: the request pipeline the era adapters
 * plug into, and the plumbing of transports. Not for applications: these may change in any
 * release.
 */
export * from './pipeline/index.js';
export { runtimeOf } from './server.js';
export { runtimeOfHost, type ServerRuntime } from './runtime.js';
export {
  Catalog,
  type PromptEntry,
  type ResourceEntry,
  type TemplateEntry,
  type ToolEntry,
} from './catalog.js';
export { RequestStateSealer, type OpenedState, type SealedStateBinding } from './requestState.js';
export { MessageChannel, type MessageChannelOptions } from './messageChannel.js';
export { toMcpError, toWireError } from './wireError.js';
export {
  compileArgumentValidator,
  compileJsonSchema,
  describeAjvError,
  toJsonSchema,
} from './inputValidation.js';
export { isValidToolName, objectSchemaProblem } from './toolRules.js';
export { interpretingCompiler } from './schemaInterpreter.js';
export type { CompiledSchema, SchemaCompiler } from './schemaCompiler.js';
export { compileTemplate, type CompiledTemplate } from './uriTemplate.js';
export { paginate, type Page } from './pagination.js';
export { LazyAbortController } from './lazyAbort.js';
export { LinkedCancellation } from './linkedCancellation.js';
export {
  base64ToBytes,
  base64UrlToBytes,
  bytesToBase64,
  bytesToBase64Url,
  randomToken,
} from './base64.js';
export { InFlightExchanges } from './inFlightExchanges.js';
export { CatalogMemo } from './catalogMemo.js';
export { seenBy } from './catalog.js';
export { nestsDeeperThan } from './limits.js';
export { ShortLivedMap, ShortLivedSet } from './shortLived.js';
export { stableStringify } from './stableJson.js';
export { extensionSettings } from './serverExtensions.js';
export { resolveKeyRing, type KeyRing, type RingKey } from './stateKeys.js';
