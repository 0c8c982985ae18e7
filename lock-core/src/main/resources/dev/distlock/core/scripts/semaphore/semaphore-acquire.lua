-- Acquire one permit of a semaphore, or keep the caller's place in its queue of waiters. Permits go to waiters in
-- arrival order: a caller gets one only while fewer live waiters are ahead of it than permits are free, so nobody
-- takes a freed permit past a live waiter queued before it. A waiter that has not asked again by its deadline is
-- dead (its process crashed or stopped) and loses its place.
-- KEYS[1] permits key          (sorted set: permit 'owner|token' -> its lease's expiry in server ms)
-- KEYS[2] count key            (string: how many permits the semaphore has)
-- KEYS[3] waiters key          (sorted set: waiting owner -> arrival in server microseconds, oldest first)
-- KEYS[4] waiter deadlines key (sorted set: waiting owner -> server ms by which it must ask again or lose its place)
-- KEYS[5] fence key
-- KEYS[6] tombstone key        (exists when the client abandoned this owner's acquisition: never grant or queue it)
-- ARGV[1] owner: owner token
-- ARGV[2] leaseMillis: lease in ms
-- ARGV[3] fenceRetentionMillis: fence counter retention in ms, or '0' when fencing is off
-- ARGV[4] declaredPermits: the permit count the caller declared: written to the count key when that is missing
-- ARGV[5] waiterKeepAliveMillis: how long a waiter keeps its place without asking again, in ms; '0' for a single
--         attempt (never queued)
-- Returns {1, token} when granted (the permit is then 'owner|token'), {0, ms until the first permit's lease ends}
-- when refused for want of a free permit, {0, -1} when refused for waiters ahead or a tombstone.
--@include fence

if redis.call('exists', KEYS[6]) == 1 then
    return {0, -1}
end
local now_ms, now_us = clock()
redis.call('zremrangebyscore', KEYS[1], '-inf', now_ms)
local stored = redis.call('get', KEYS[2])
if not stored then
    redis.call('set', KEYS[2], ARGV[4])
    stored = ARGV[4]
end
local free = tonumber(stored) - redis.call('zcard', KEYS[1])
-- Dead waiters leave the queue before places are counted.
local dead = redis.call('zrangebyscore', KEYS[4], '-inf', now_ms)
for _, waiter in ipairs(dead) do
    redis.call('zrem', KEYS[3], waiter)
end
redis.call('zremrangebyscore', KEYS[4], '-inf', now_ms)
local place = redis.call('zrank', KEYS[3], ARGV[1])
if not place then
    place = redis.call('zcard', KEYS[3])
end
if place < free then
    redis.call('zrem', KEYS[3], ARGV[1])
    redis.call('zrem', KEYS[4], ARGV[1])
    local token = mint(KEYS[5], ARGV[3])
    redis.call('zadd', KEYS[1], now_ms + tonumber(ARGV[2]), ARGV[1] .. '|' .. token)
    local last_expiry = redis.call('zrange', KEYS[1], -1, -1, 'withscores')[2]
    redis.call('pexpire', KEYS[1], tonumber(last_expiry) - now_ms)
    return {1, token}
end
if ARGV[5] ~= '0' then
    redis.call('zadd', KEYS[3], 'nx', now_us, ARGV[1])
    redis.call('zadd', KEYS[4], now_ms + tonumber(ARGV[5]), ARGV[1])
    -- Every live waiter's deadline is at most now + ARGV[5]: the keys outlive them all and vanish with the last.
    redis.call('pexpire', KEYS[3], tonumber(ARGV[5]))
    redis.call('pexpire', KEYS[4], tonumber(ARGV[5]))
end
if free > 0 then
    return {0, -1}
end
local first_expiry = redis.call('zrange', KEYS[1], 0, 0, 'withscores')[2]
if not first_expiry then
    return {0, -1}
end
return {0, tonumber(first_expiry) - now_ms}
