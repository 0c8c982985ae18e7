-- Extend (or only confirm) one hold stored as a sorted-set member: a read hold of a read/write lock, or a permit of a
-- semaphore. Never recreates a missing or expired hold.
-- KEYS[1] holds key (sorted set: hold 'owner|token' -> expiry in server ms: a lock's readers, a semaphore's permits)
-- ARGV[1] owner: the hold 'owner|token'
-- ARGV[2] leaseMillis: new lease in ms, or 0 to confirm without extending
-- Returns 1 when the hold is still the caller's, 0 otherwise.
local t = redis.call('time')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local expiry = redis.call('zscore', KEYS[1], ARGV[1])
if not expiry or tonumber(expiry) <= now_ms then
    return 0
end
if ARGV[2] ~= '0' then
    redis.call('zadd', KEYS[1], 'xx', now_ms + tonumber(ARGV[2]), ARGV[1])
    local last_expiry = redis.call('zrange', KEYS[1], -1, -1, 'withscores')[2]
    redis.call('pexpire', KEYS[1], tonumber(last_expiry) - now_ms)
end
return 1
