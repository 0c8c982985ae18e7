-- Acquire a single-key lock without a queue (RedLock node) for a new owner and mint its fencing token.
-- KEYS[1] lock key      (string: owner token, with PX expiry)
-- KEYS[2] fence key     (string: last fencing token issued for this lock)
-- KEYS[3] tombstone key (exists when the client abandoned this owner's acquisition: never grant it)
-- ARGV[1] owner token   (random per acquisition)
-- ARGV[2] lease in ms   (> 0)
-- ARGV[3] fence counter retention in ms, or 0 when fencing is off (token 0, no fence key written)
-- Returns {1, token} when granted, {0, pttl} when another owner holds the lock (pttl -1: no expiry, should not happen).
if redis.call('exists', KEYS[3]) == 1 then
    return {0, -1}
end
if redis.call('exists', KEYS[1]) == 1 then
    return {0, redis.call('pttl', KEYS[1])}
end
if ARGV[3] == '0' then
    redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2])
    return {1, 0}
end
-- Tokens must keep increasing after the counter key is lost (FLUSHALL, restart without persistence): never go
-- below the server clock in microseconds. Lua numbers are doubles; both operands stay far below 2^53.
local t = redis.call('time')
local now_us = tonumber(t[1]) * 1000000 + tonumber(t[2])
local last = tonumber(redis.call('get', KEYS[2]) or '0') or 0
local token = math.max(last + 1, now_us)
local token_str = string.format('%.0f', token)
redis.call('set', KEYS[2], token_str, 'px', ARGV[3])
redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2])
return {1, token_str}
