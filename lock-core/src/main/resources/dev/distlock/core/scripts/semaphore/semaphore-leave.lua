-- Leave a semaphore's queue after giving up, or abandon an acquisition whose outcome is unknown: with a tombstone the
-- owner is never granted or queued later, and a permit it was granted meanwhile is returned. Wakes the waiters when
-- a permit or a place ahead of them was freed.
-- KEYS[1] permits key          (sorted set: permit 'owner|token' -> its lease's expiry in server ms)
-- KEYS[2] waiters key          (sorted set: waiting owner -> arrival in server microseconds)
-- KEYS[3] waiter deadlines key (sorted set: waiting owner -> deadline in server ms)
-- KEYS[4] tombstone key
-- ARGV[1] owner: owner token (without the fencing token)
-- ARGV[2] tombstoneMillis: tombstone lifetime in ms, or '0' to leave the queue without one
-- ARGV[3] broadcastChannel: the semaphore's broadcast channel
-- ARGV[4] publish: 'publish' or 'spublish'
-- Returns 1 when a permit or a place was freed, 0 when the owner had neither.
if ARGV[2] ~= '0' then
    redis.call('set', KEYS[4], '1', 'px', tonumber(ARGV[2]))
end
local freed = redis.call('zrem', KEYS[2], ARGV[1])
redis.call('zrem', KEYS[3], ARGV[1])
local prefix = ARGV[1] .. '|'
for _, permit in ipairs(redis.call('zrange', KEYS[1], 0, -1)) do
    if string.sub(permit, 1, #prefix) == prefix then
        freed = freed + redis.call('zrem', KEYS[1], permit)
    end
end
if freed == 0 then
    return 0
end
if ARGV[4] == 'spublish' then
    redis.call('spublish', ARGV[3], '*')
else
    redis.call('publish', ARGV[3], '*')
end
return 1
