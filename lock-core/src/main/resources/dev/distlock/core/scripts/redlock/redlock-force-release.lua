-- RedLock: delete one node's lock key whoever holds it, and wake the acquisitions that wait for it.
-- KEYS[1] lock key
-- KEYS[2] waiters key
-- ARGV[1] unlockChannel: unlock channel
-- Returns 1 when a key was deleted, 0 when there was none.
local holder = redis.call('get', KEYS[1])
if not holder then
    return 0
end
redis.call('del', KEYS[1])
if redis.call('zcard', KEYS[2]) > 0 then
    redis.call('publish', ARGV[1], holder)
end
return 1
