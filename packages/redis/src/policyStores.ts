import { createHash } from 'node:crypto';
import type { RateLimitStore, RateRule, RateVerdict, ResponseCacheStore } from '@rondo/core';
import { luaScript, type RedisConnection } from './connection.js';
import type { Keys } from './keys.js';

// Both rate algorithms run on Redis's clock (TIME), so replicas with drifting clocks count alike;
// each call is one script: one round trip, atomic against every other replica.
const TOKEN_BUCKET = luaScript(`
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rate = limit / window
local s = redis.call('HMGET', KEYS[1], 'a', 'b')
local tokens = limit
if s[1] then tokens = math.min(limit, tonumber(s[1]) + (now - tonumber(s[2])) * rate) end
local allowed = 0
local retry = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  retry = math.max(1, math.ceil((1 - tokens) / rate))
end
redis.call('HSET', KEYS[1], 'a', tostring(tokens), 'b', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(window * 2))
return {allowed, retry}
`);

const SLIDING_WINDOW = luaScript(`
local limit = tonumber(ARGV[1])
local w = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = math.floor(now / w)
local s = redis.call('HMGET', KEYS[1], 'a', 'b', 'c')
local cur = 0
local prev = 0
if s[2] then
  local b = tonumber(s[2])
  if b == window then
    cur = tonumber(s[1])
    prev = tonumber(s[3])
  elseif b == window - 1 then
    prev = tonumber(s[1])
  end
end
local elapsed = now - window * w
local estimate = prev * (w - elapsed) / w + cur
if estimate + 1 <= limit then
  redis.call('HSET', KEYS[1], 'a', cur + 1, 'b', window, 'c', prev)
  redis.call('PEXPIRE', KEYS[1], math.ceil(w * 2))
  return {1, 0}
end
local wait
if cur + 1 > limit then
  wait = w - elapsed + w * (1 - (limit - 1) / cur)
else
  wait = w - ((limit - cur - 1) * w) / prev - elapsed
end
return {0, math.max(1, math.ceil(wait))}
`);

/** Rate-limit counters on Redis: every replica counts against the same ones. */
export class RedisRateLimitStore implements RateLimitStore {
  constructor(
    private readonly connection: RedisConnection,
    private readonly keys: Keys,
  ) {}

  async hit(key: string, rule: RateRule): Promise<RateVerdict> {
    const script = rule.algorithm === 'sliding-window' ? SLIDING_WINDOW : TOKEN_BUCKET;
    const [allowed, retry] = await this.connection.script<[number, number]>(
      script,
      [this.keys.rate(digest(key))],
      [rule.limit, rule.windowMs],
    );
    return { allowed: allowed === 1, retryAfterMs: Number(retry) };
  }
}

const CACHE_SET = luaScript(`
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('SADD', KEYS[2], KEYS[1])
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
return 1
`);

const CACHE_DROP = luaScript(`
local members = redis.call('SMEMBERS', KEYS[1])
for _, member in ipairs(members) do redis.call('DEL', member) end
redis.call('DEL', KEYS[1])
return #members
`);

/**
 * A response cache on Redis shared by every replica: a value is one key (its lifetime the TTL), a
 * group the set of its values' keys, so a change drops the group in one script.
 */
export class RedisResponseCache implements ResponseCacheStore {
  constructor(
    private readonly connection: RedisConnection,
    private readonly keys: Keys,
  ) {}

  async get(group: string, key: string): Promise<string | undefined> {
    const value = await this.connection.call<string | null>([
      'GET',
      this.keys.cached(digest(group), digest(key)),
    ]);
    return value ?? undefined;
  }

  async set(group: string, key: string, value: string, ttlMs: number): Promise<void> {
    if (ttlMs <= 0) return;
    const g = digest(group);
    await this.connection.script(
      CACHE_SET,
      [this.keys.cached(g, digest(key)), this.keys.cacheGroup(g)],
      [value, Math.ceil(ttlMs)],
    );
  }

  async drop(group: string): Promise<void> {
    await this.connection.script(CACHE_DROP, [this.keys.cacheGroup(digest(group))], []);
  }
}

/** Keys of any length, user data included, become fixed-size names. */
function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}
