-- Acquire the write hold: exclusive of readers and other writers. A refused writer that will wait registers in the
-- waiting-writers set, which keeps new readers out until it gets its turn (writers are not starved by readers).
-- KEYS[1] write key
-- KEYS[2] readers key
-- KEYS[3] waiting writers key
-- KEYS[4] fence key
-- KEYS[5] tombstone key (exists when the client abandoned this owner's acquisition: never grant or queue it)
-- ARGV[1] owner token
-- ARGV[2] lease in ms
-- ARGV[3] fence counter retention in ms, or 0 when fencing is off
-- ARGV[4] waiter timeout in ms: a waiting writer that stops polling stops blocking readers after this
-- ARGV[5] '1' if the caller will wait, '0' for a single attempt
-- Returns {1, token} when granted, {0, pttl} when refused (pttl -1 when readers hold it).
if redis.call('exists', KEYS[5]) == 1 then
    return {0, -1}
end
local t = redis.call('time')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('zremrangebyscore', KEYS[2], '-inf', now_ms)
redis.call('zremrangebyscore', KEYS[3], '-inf', now_ms)
local pttl = -1
if redis.call('exists', KEYS[1]) == 1 then
    pttl = redis.call('pttl', KEYS[1])
elseif redis.call('zcard', KEYS[2]) == 0 then
    redis.call('zrem', KEYS[3], ARGV[1])
    local token = 0
    if ARGV[3] ~= '0' then
        local now_us = tonumber(t[1]) * 1000000 + tonumber(t[2])
        local last = tonumber(redis.call('get', KEYS[4]) or '0') or 0
        token = math.max(last + 1, now_us)
        redis.call('set', KEYS[4], string.format('%.0f', token), 'px', ARGV[3])
    end
    redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2])
    return {1, string.format('%.0f', token)}
end
if ARGV[5] == '1' then
    redis.call('zadd', KEYS[3], now_ms + tonumber(ARGV[4]), ARGV[1])
    redis.call('pexpire', KEYS[3], 2 * tonumber(ARGV[4]))
end
return {0, pttl}
