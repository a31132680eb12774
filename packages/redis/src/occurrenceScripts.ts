import { luaScript } from './connection.js';

// Forgets a type's oldest entries while its stream holds more than its bounds (saved by the last
// append) allow: past the count, past the bytes (counted in the log's hash), or older than the age.
// Each entry carries its occurrence's JSON (`o`) and when it happened (`at`, ms).
const PRUNE = `
local function prune(stream, log, now)
  local saved = redis.call('HMGET', log, 'count', 'maxBytes', 'ageMs', 'bytes')
  if not saved[1] then return end
  local maxCount, maxBytes = tonumber(saved[1]), tonumber(saved[2])
  local oldestKept = now - tonumber(saved[3])
  local bytes = tonumber(saved[4] or '0')
  local count = redis.call('XLEN', stream)
  while count > 0 do
    local first = redis.call('XRANGE', stream, '-', '+', 'COUNT', 1)[1]
    local body, at = first[2][2], tonumber(first[2][4])
    if count <= maxCount and bytes <= maxBytes and at >= oldestKept then break end
    redis.call('XDEL', stream, first[1])
    bytes = bytes - string.len(body)
    count = count - 1
  end
  redis.call('HSET', log, 'bytes', bytes)
end
`;

/**
 * Appends one occurrence: numbers it after the type's head, adds it to the stream (entry id
 * `<seq>-0`, so a cursor's position names an entry on every replica), saves the bounds, prunes, and
 * publishes it for every process's followers, all in one step, so the channel's order is the log's.
 * KEYS: stream, log hash. ARGV: occurrence JSON, count, bytes, age ms, now, a fresh epoch,
 * channel, the type's JSON, the occurrence's `at`.
 */
export const APPEND_OCCURRENCE = luaScript(`${PRUNE}
redis.call('HSETNX', KEYS[2], 'epoch', ARGV[6])
local seq = redis.call('HINCRBY', KEYS[2], 'head', 1)
redis.call('XADD', KEYS[1], seq .. '-0', 'o', ARGV[1], 'at', ARGV[9])
redis.call('HINCRBY', KEYS[2], 'bytes', string.len(ARGV[1]))
redis.call('HSET', KEYS[2], 'count', ARGV[2], 'maxBytes', ARGV[3], 'ageMs', ARGV[4])
prune(KEYS[1], KEYS[2], tonumber(ARGV[5]))
redis.call('PUBLISH', ARGV[7],
  '{"type":' .. ARGV[8] .. ',"seq":' .. seq .. ',"occurrence":' .. ARGV[1] .. '}')
return {redis.call('HGET', KEYS[2], 'epoch'), seq}
`);

/**
 * The type's epoch (made when it has none) and head, after pruning what its bounds no longer allow.
 * KEYS: stream, log hash. ARGV: now, a fresh epoch.
 */
export const LOG_POSITION = luaScript(`${PRUNE}
redis.call('HSETNX', KEYS[2], 'epoch', ARGV[2])
prune(KEYS[1], KEYS[2], tonumber(ARGV[1]))
local state = redis.call('HMGET', KEYS[2], 'epoch', 'head')
return {state[1], tonumber(state[2] or '0')}
`);
