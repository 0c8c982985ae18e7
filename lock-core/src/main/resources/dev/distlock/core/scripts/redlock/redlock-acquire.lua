-- RedLock, round 1 on one node: take the lock key for one attempt of an acquisition and read the node's fence.
-- No barging: while other acquisitions wait for this lock (registered in the waiters set), an acquisition that is
-- not itself registered is refused, and registers when it will wait.
-- KEYS[1] lock key            (string: attempt owner token, with PX expiry)
-- KEYS[2] fence key           (string: highest fencing token written here by round 2)
-- KEYS[3] waiters key         (sorted set: acquisition owner -> deadline in server ms)
-- KEYS[4] acquisition tombstone (exists when the whole acquisition was abandoned: never grant any of its attempts)
-- KEYS[5] attempt tombstone   (exists when this attempt was abandoned: never grant it)
-- ARGV[1] attemptOwner: attempt owner token (the acquisition owner, '/', an attempt number)
-- ARGV[2] leaseMillis: lease in ms         (> 0)
-- ARGV[3] fencing: '1' to read the fence, '0' when fencing is off
-- ARGV[4] acquisition: acquisition owner token
-- ARGV[5] waiterMillis: waiter entry lifetime in ms when the acquisition will wait if refused, '0' for a single attempt
-- Returns {1, fence} when granted (fence: the stored fence floored by the server clock in microseconds, as a string;
-- 0 with fencing off), {0, pttl, holder} when another owner holds the key, {2, -1} when refused because other
-- acquisitions wait, {3, -1} when a tombstone refuses it.
if redis.call('exists', KEYS[4]) == 1 or redis.call('exists', KEYS[5]) == 1 then
    return {3, -1}
end
local t = redis.call('time')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('zremrangebyscore', KEYS[3], '-inf', now_ms)
local function wait_here()
    if ARGV[5] ~= '0' then
        redis.call('zadd', KEYS[3], now_ms + tonumber(ARGV[5]), ARGV[4])
        redis.call('pexpire', KEYS[3], ARGV[5])
    end
end
local holder = redis.call('get', KEYS[1])
if holder then
    wait_here()
    return {0, redis.call('pttl', KEYS[1]), holder}
end
if not redis.call('zscore', KEYS[3], ARGV[4]) and redis.call('zcard', KEYS[3]) > 0 then
    wait_here()
    return {2, -1}
end
-- A waiting acquisition registers here too and stays registered until round 2 (or leaving) removes it, so that an
-- attempt that fails after all (no majority) keeps its place on every node, also where it was granted.
wait_here()
redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2])
if ARGV[3] == '0' then
    return {1, 0}
end
-- Lua numbers are doubles; microsecond tokens stay far below 2^53.
local now_us = tonumber(t[1]) * 1000000 + tonumber(t[2])
local stored = tonumber(redis.call('get', KEYS[2]) or '0') or 0
return {1, string.format('%.0f', math.max(stored, now_us))}
