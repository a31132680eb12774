import { luaScript } from './connection.js';

// The task scripts keep a task in three keys: its fields (a hash: meta, status, statusMessage,
// lastUpdatedAt, result, error), its outstanding input requests and its recorded answers (hashes
// of JSON by key). JSON values are stored and returned as text, never decoded in Lua, so nothing
// of them changes on the way (Lua's cjson would turn an empty array into an object).
const PRELUDE = `
local function taskJson(main, requests)
  local fields = redis.call('HGETALL', main)
  local t = {}
  for i = 1, #fields, 2 do t[fields[i]] = fields[i + 1] end
  local parts = { '{"meta":', t.meta, ',"status":', cjson.encode(t.status),
    ',"lastUpdatedAt":', t.lastUpdatedAt }
  if t.statusMessage then parts[#parts + 1] = ',"statusMessage":' .. cjson.encode(t.statusMessage) end
  if t.result then parts[#parts + 1] = ',"result":' .. t.result end
  if t.error then parts[#parts + 1] = ',"error":' .. t.error end
  parts[#parts + 1] = ',"inputRequests":{'
  local pending = redis.call('HGETALL', requests)
  for i = 1, #pending, 2 do
    if i > 1 then parts[#parts + 1] = ',' end
    parts[#parts + 1] = cjson.encode(pending[i]) .. ':' .. pending[i + 1]
  end
  parts[#parts + 1] = '}}'
  return table.concat(parts)
end
local function isTerminal(status)
  return status == 'completed' or status == 'failed' or status == 'cancelled'
end
local function announce(channel, kind, json)
  redis.call('PUBLISH', channel, '{"kind":"' .. kind .. '","task":' .. json .. '}')
end
local function expireWith(main, key)
  local left = redis.call('PTTL', main)
  if left > 0 then redis.call('PEXPIRE', key, left) end
end
`;

const task = (body: string) => luaScript(PRELUDE + body);

/**
 * KEYS: task, the owner's running tasks (a sorted set: task id scored by its expiry). ARGV: meta
 * JSON, now, ttl ms ('' for none), has message ('1'), message, most running tasks of the owner ('0'
 * for no cap), the prefix of task keys, task id, expiry (ms since the epoch). Returns 0, storing
 * nothing, when the owner already has that many tasks that are neither finished nor expired: the
 * set is pruned of those only when it is full, so a create costs O(1) until then.
 */
export const CREATE = task(`
local max = tonumber(ARGV[6])
if max > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[2])
  if redis.call('ZCARD', KEYS[2]) >= max then
    for _, id in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
      local status = redis.call('HGET', ARGV[7] .. id, 'status')
      if not status or isTerminal(status) then redis.call('ZREM', KEYS[2], id) end
    end
    if redis.call('ZCARD', KEYS[2]) >= max then return 0 end
  end
  redis.call('ZADD', KEYS[2], ARGV[9], ARGV[8])
  local left = tonumber(ARGV[9]) - tonumber(ARGV[2])
  if redis.call('PTTL', KEYS[2]) < left then redis.call('PEXPIRE', KEYS[2], left) end
end
redis.call('HSET', KEYS[1], 'meta', ARGV[1], 'status', 'working', 'lastUpdatedAt', ARGV[2])
if ARGV[4] == '1' then redis.call('HSET', KEYS[1], 'statusMessage', ARGV[5]) end
if ARGV[3] ~= '' then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1
`);

/** KEYS: task, requests. */
export const GET = task(`
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
return taskJson(KEYS[1], KEYS[2])
`);

/**
 * KEYS: task, requests. ARGV: channel, now, status (''), has message ('1'), message, result JSON
 * (''), error JSON (''), then pairs of request key and body JSON.
 */
export const UPDATE = task(`
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
if isTerminal(redis.call('HGET', KEYS[1], 'status')) then return taskJson(KEYS[1], KEYS[2]) end
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'status', ARGV[3]) end
if ARGV[4] == '1' then redis.call('HSET', KEYS[1], 'statusMessage', ARGV[5]) end
if ARGV[6] ~= '' then redis.call('HSET', KEYS[1], 'result', ARGV[6]) end
if ARGV[7] ~= '' then redis.call('HSET', KEYS[1], 'error', ARGV[7]) end
if #ARGV >= 9 then
  for i = 8, #ARGV, 2 do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
  expireWith(KEYS[1], KEYS[2])
end
redis.call('HSET', KEYS[1], 'lastUpdatedAt', ARGV[2])
local json = taskJson(KEYS[1], KEYS[2])
announce(ARGV[1], 'changed', json)
return json
`);

/** KEYS: task, requests, answers. ARGV: channel, now, then pairs of request key and answer JSON. */
export const RESPOND = task(`
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local status = redis.call('HGET', KEYS[1], 'status')
if isTerminal(status) then return taskJson(KEYS[1], KEYS[2]) end
local taken = false
for i = 3, #ARGV, 2 do
  if redis.call('HDEL', KEYS[2], ARGV[i]) == 1 then
    redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 1])
    taken = true
  end
end
if not taken then return taskJson(KEYS[1], KEYS[2]) end
expireWith(KEYS[1], KEYS[3])
if status == 'input_required' and redis.call('HLEN', KEYS[2]) == 0 then
  redis.call('HSET', KEYS[1], 'status', 'working')
end
redis.call('HSET', KEYS[1], 'lastUpdatedAt', ARGV[2])
local json = taskJson(KEYS[1], KEYS[2])
announce(ARGV[1], 'changed', json)
return json
`);

/** KEYS: answers. Returns the answers as pairs of key and answer JSON, and forgets them. */
export const TAKE_ANSWERS = task(`
local answers = redis.call('HGETALL', KEYS[1])
redis.call('DEL', KEYS[1])
return answers
`);

/** KEYS: task, requests, answers. ARGV: channel, now. */
export const CANCEL = task(`
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
if isTerminal(redis.call('HGET', KEYS[1], 'status')) then return taskJson(KEYS[1], KEYS[2]) end
redis.call('HSET', KEYS[1], 'status', 'cancelled', 'statusMessage', 'Cancelled by the client',
  'lastUpdatedAt', ARGV[2])
redis.call('DEL', KEYS[2], KEYS[3])
local json = taskJson(KEYS[1], KEYS[2])
announce(ARGV[1], 'cancelled', json)
return json
`);
