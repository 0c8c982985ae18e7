-- What Redis knows about a semaphore now: its permit count, the live permits with their remaining leases, and the
-- live waiters in arrival order. Read-only: expired permits and dead waiters are left out, not removed.
-- KEYS[1] permits key          (sorted set: permit 'owner|token' -> its lease's expiry in server ms)
-- KEYS[2] count key            (string: how many permits the semaphore has)
-- KEYS[3] waiters key          (sorted set: waiting owner -> arrival in server microseconds)
-- KEYS[4] waiter deadlines key (sorted set: waiting owner -> deadline in server ms)
-- Returns {count (0 when none is stored), {permit, remaining ms, permit, remaining ms, ...}, {waiter, ...}}.
local t = redis.call('time')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local count = tonumber(redis.call('get', KEYS[2]) or '0')
local permits = {}
local live = redis.call('zrangebyscore', KEYS[1], '(' .. now_ms, '+inf', 'withscores')
for i = 1, #live, 2 do
    permits[#permits + 1] = live[i]
    permits[#permits + 1] = tonumber(live[i + 1]) - now_ms
end
local waiters = {}
for _, waiter in ipairs(redis.call('zrange', KEYS[3], 0, -1)) do
    local deadline = redis.call('zscore', KEYS[4], waiter)
    if deadline and tonumber(deadline) > now_ms then
        waiters[#waiters + 1] = waiter
    end
end
return {count, permits, waiters}
