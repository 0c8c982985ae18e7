-- RedLock: release one node's lock key if it belongs to the caller, and wake the acquisitions that wait for it.
-- KEYS[1] lock key
-- KEYS[2] waiters key (sorted set: waiting acquisition owner -> deadline in server ms)
-- ARGV[1] owner: an attempt owner token (exact match), or an acquisition owner token, which matches any of its
--         attempts ('<owner>/<n>')
-- ARGV[2] unlockChannel: unlock channel
-- ARGV[3] wakeWaiters: '1' to publish the released owner token on the channel when live waiters are registered,
--         '0' not to
-- Returns 1 when the caller's key was deleted, 0 when it is missing or owned by someone else (left untouched).
local holder = redis.call('get', KEYS[1])
if not holder then
    return 0
end
if holder ~= ARGV[1] and string.sub(holder, 1, #ARGV[1] + 1) ~= ARGV[1] .. '/' then
    return 0
end
redis.call('del', KEYS[1])
if ARGV[3] == '1' then
    local t = redis.call('time')
    redis.call('zremrangebyscore', KEYS[2], '-inf', tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))
    if redis.call('zcard', KEYS[2]) > 0 then
        redis.call('publish', ARGV[2], holder)
    end
end
return 1
