-- Abandon a read lock acquisition whose outcome is unknown or unwanted (timed out, interrupted, too slow): leave a
-- tombstone so that the acquire can never be granted later (a command replayed after a reconnect), then remove
-- whatever read hold the owner got. Everything is owner-checked; other owners are untouched.
-- KEYS[1] tombstone key        (set with PX ARGV[2])
-- KEYS[2] readers key          (sorted set: reader hold 'owner|token' removed where the owner is ARGV[1])
-- ARGV[1] owner token
-- ARGV[2] tombstone lifetime in ms
-- ARGV[3] unlock channel
-- Always wakes the lock's waiters: a hold may have changed.
-- Returns 1 when a hold of the owner was removed, 0 otherwise.
redis.call('set', KEYS[1], '1', 'px', ARGV[2])
local removed = 0
local prefix = ARGV[1] .. '|'
for _, member in ipairs(redis.call('zrange', KEYS[2], 0, -1)) do
    if member == ARGV[1] or string.sub(member, 1, #prefix) == prefix then
        removed = removed + redis.call('zrem', KEYS[2], member)
    end
end
redis.call('publish', ARGV[3], '*')
if removed > 0 then
    return 1
end
return 0
