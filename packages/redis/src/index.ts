export {
  createRedisState,
  type RedisState,
  type RedisStateOptions,
  type RedisStats,
} from './redisState.js';
export { RedisRateLimitStore, RedisResponseCache } from './policyStores.js';
export { RedisOccurrenceLog } from './occurrenceLog.js';
export { RedisWebhookStore } from './webhookStore.js';
