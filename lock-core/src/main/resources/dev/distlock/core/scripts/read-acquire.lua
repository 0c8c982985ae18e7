-- Acquire a read hold: shared with other readers, refused while a writer holds or waits (writer preference).
-- KEYS[1] write key          (string: writer owner token, with PX expiry)
-- KEYS[2] readers key        (sorted set: reader owner token -> expiry in server ms; each read hold has its own lease)
-- KEYS[3] waiting writers key (sorted set: writer owner token -> deadline in server ms)
-- KEYS[4] fence key
-- KEYS[5] tombstone key (exists when the client abandoned this owner's acquisition: never grant it)
-- ARGV[1] owner token
-- ARGV[2] lease in ms
-- ARGV[3] fence counter retention in ms, or 0 when fencing is off
-- ARGV[4] owner token of the write hold of the same thread ('' if none): a writer may take read holds (downgrade)
-- Returns {1, token} when granted, {0, pttl} when refused (pttl -1 when a writer is waiting).
if redis.call('exists', KEYS[5]) == 1 then
    return {0, -1}
end
local t = redis.call('time')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('zremrangebyscore', KEYS[2], '-inf', now_ms)
redis.call('zremrangebyscore', KEYS[3], '-inf', now_ms)
local writer = redis.call('get', KEYS[1])
local downgrade = writer and ARGV[4] ~= '' and writer == ARGV[4]
if writer and not downgrade then
    return {0, redis.call('pttl', KEYS[1])}
end
if not downgrade and redis.call('zcard', KEYS[3]) > 0 then
    return {0, -1}
end
local token = 0
if ARGV[3] ~= '0' then
    local now_us = tonumber(t[1]) * 1000000 + tonumber(t[2])
    local last = tonumber(redis.call('get', KEYS[4]) or '0') or 0
    token = math.max(last + 1, now_us)
    redis.call('set', KEYS[4], string.format('%.0f', token), 'px', ARGV[3])
end
redis.call('zadd', KEYS[2], now_ms + tonumber(ARGV[2]), ARGV[1])
local last_expiry = redis.call('zrange', KEYS[2], -1, -1, 'withscores')[2]
redis.call('pexpire', KEYS[2], tonumber(last_expiry) - now_ms)
return {1, string.format('%.0f', token)}
