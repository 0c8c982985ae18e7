-- Acquire a fair (FIFO) lock: granted only to the head of the wait queue, or to anyone when nobody queues.
-- KEYS[1] lock key      (string: owner token, with PX expiry)
-- KEYS[2] fence key     (string: last fencing token issued)
-- KEYS[3] queue key     (list: waiting owner tokens in arrival order)
-- KEYS[4] waiters key   (sorted set: waiting owner token -> deadline in server ms; refreshed by every attempt)
-- KEYS[5] tombstone key (exists when the client abandoned this owner's acquisition: never grant or queue it)
-- ARGV[1] owner token
-- ARGV[2] lease in ms
-- ARGV[3] fence counter retention in ms, or 0 when fencing is off
-- ARGV[4] waiter timeout in ms: a waiter that has not polled for this long is dropped from the queue
-- ARGV[5] '1' if the caller will wait (joins the queue when refused), '0' for a single attempt
-- ARGV[6] unlock channel (the new head is told when a dead head is dropped)
-- Returns {1, token} when granted, {0, pttl} when refused (pttl -1: free but another waiter's turn).
if redis.call('exists', KEYS[5]) == 1 then
    return {0, -1}
end
local t = redis.call('time')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local dropped = redis.call('zrangebyscore', KEYS[4], '-inf', now_ms)
for i = 1, #dropped do
    redis.call('lrem', KEYS[3], 0, dropped[i])
end
if #dropped > 0 then
    redis.call('zremrangebyscore', KEYS[4], '-inf', now_ms)
end
local head = redis.call('lindex', KEYS[3], 0)
local locked = redis.call('exists', KEYS[1]) == 1
if not locked and (not head or head == ARGV[1]) then
    if head then
        redis.call('lpop', KEYS[3])
        redis.call('zrem', KEYS[4], ARGV[1])
    end
    local token = 0
    if ARGV[3] ~= '0' then
        local now_us = tonumber(t[1]) * 1000000 + tonumber(t[2])
        local last = tonumber(redis.call('get', KEYS[2]) or '0') or 0
        token = math.max(last + 1, now_us)
        redis.call('set', KEYS[2], string.format('%.0f', token), 'px', ARGV[3])
    end
    redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2])
    return {1, string.format('%.0f', token)}
end
if ARGV[5] == '1' then
    if not redis.call('zscore', KEYS[4], ARGV[1]) then
        redis.call('rpush', KEYS[3], ARGV[1])
    end
    redis.call('zadd', KEYS[4], now_ms + tonumber(ARGV[4]), ARGV[1])
    -- The queue disappears by itself once every waiter has stopped polling.
    redis.call('pexpire', KEYS[3], 2 * tonumber(ARGV[4]))
    redis.call('pexpire', KEYS[4], 2 * tonumber(ARGV[4]))
end
if not locked and #dropped > 0 and head then
    redis.call('publish', ARGV[6], head)
end
if locked then
    return {0, redis.call('pttl', KEYS[1])}
end
return {0, -1}
