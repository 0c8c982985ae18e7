-- Abandon an acquisition whose outcome is unknown or unwanted (timed out, interrupted, too slow), for every lock kind:
-- leave a tombstone so that the acquire can never be granted later (a command replayed after a reconnect), then
-- remove whatever the owner holds or queues for. Everything is owner-checked; other owners are untouched.
-- KEYS[1] tombstone key        (set with PX ARGV[2])
-- KEYS[2] lock or write key    (string: deleted if it holds ARGV[1])
-- KEYS[3] readers key          (sorted set: ARGV[1] removed)
-- KEYS[4] queue key            (list: ARGV[1] removed)
-- KEYS[5] waiters key          (sorted set of waiting fair owners or writers: ARGV[1] removed)
-- ARGV[1] owner token
-- ARGV[2] tombstone lifetime in ms
-- ARGV[3] unlock channel
-- Always wakes the lock's waiters: a queue or a hold may have changed.
-- Returns 1 when a hold of the owner was removed, 0 otherwise.
redis.call('set', KEYS[1], '1', 'px', ARGV[2])
local removed = 0
if redis.call('get', KEYS[2]) == ARGV[1] then
    redis.call('del', KEYS[2])
    removed = 1
end
removed = removed + redis.call('zrem', KEYS[3], ARGV[1])
redis.call('lrem', KEYS[4], 0, ARGV[1])
redis.call('zrem', KEYS[5], ARGV[1])
redis.call('publish', ARGV[3], '*')
if removed > 0 then
    return 1
end
return 0
