import { luaScript } from './connection.js';

/**
 * Creates or refreshes a subscription in one step: its principal's expired ones stop counting, a
 * new one past the principal's cap is refused (`{0, held}`), else the record and its places in the
 * type's and the principal's sets (scored by expiry) are written (`{1, created}`).
 * KEYS: record, type's set, principal's set. ARGV: record JSON, id, expiresAt, cap, now, keep ms.
 */
export const SAVE_WEBHOOK = luaScript(`
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[5])
local created = 0
if not redis.call('ZSCORE', KEYS[3], ARGV[2]) then
  created = 1
  local held = redis.call('ZCARD', KEYS[3])
  if held >= tonumber(ARGV[4]) then return {0, held} end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[6])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[2])
return {1, created}
`);

/**
 * Forgets a subscription and its places in its type's and principal's sets; 0 when there was none.
 * KEYS: record, type's set, principal's set. ARGV: id.
 */
export const REMOVE_WEBHOOK = luaScript(`
if redis.call('DEL', KEYS[1]) == 0 then return 0 end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
return 1
`);

/**
 * Claims one delivery: granted (1) unless a claim holds until after `now`; a granted claim holds
 * until `now + hold`. KEYS: claim. ARGV: now, hold ms.
 */
export const CLAIM_DELIVERY = luaScript(`
local held = redis.call('GET', KEYS[1])
if held and tonumber(held) > tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[2]), 'PX', ARGV[2])
return 1
`);
