export { rateLimit, type RateLimitOptions } from './rateLimit.js';
export { MemoryRateLimitStore, type MemoryRateLimitStoreOptions } from './memoryRateLimitStore.js';
export { slideWindow, takeToken, type RateState } from './rateAlgorithms.js';
export { callerKey, addressOf, type CallerKeying, type ProxyTrust } from './callerKey.js';
export { responseCache, type ResponseCacheOptions } from './responseCache.js';
export { MemoryResponseCache, type MemoryResponseCacheOptions } from './memoryResponseCache.js';
export type { CacheTarget, CachedMethod } from './cacheTarget.js';
export { responseSizeCap, cutText, type ResponseSizeCapOptions } from './sizeCap.js';
export { callTimeout, type CallTimeoutOptions } from './timeout.js';
export {
  RATE_LIMITED,
  RateLimitedError,
  type RateLimitStore,
  type RateRule,
  type RateVerdict,
  type ResponseCacheStore,
} from '@rondo/core';
