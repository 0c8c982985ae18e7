-- Abandon a read lock acquisition whose outcome is unknown or unwanted (timed out, interrupted, too slow): leave a
-- tombstone so that the acquire can never be granted later (a command replayed after a reconnect), then remove
-- whatever read hold the owner got. When that was the last read hold, the lock goes to the first live queued writer,
-- as in read-release.lua. Everything is owner-checked; other owners are untouched.
-- KEYS[1] tombstone key (set with PX ARGV[2])
-- KEYS[2] readers key   (sorted set: reader hold 'owner|token' removed where the owner is ARGV[1])
-- KEYS[3] write key
-- KEYS[4] fence key
-- KEYS[5] writer queue
-- ARGV[1] owner: owner token
-- ARGV[2] tombstoneMillis: tombstone lifetime in ms
-- ARGV[3] broadcastChannel: the lock's broadcast channel
-- ARGV[4] fenceRetentionMillis: fence counter retention in ms, or '0' when fencing is off
-- ARGV[5] publish: 'publish' or 'spublish'
-- ARGV[6] countsListeners: '1' when the server's subscriber count of a wake channel proves its client listens, else '0'
-- Returns {1 when a hold of the owner was removed else 0, writer offered the lock or '', its offer time in ms or 0}.
--@include fence
--@include hold
--@include offer
--@include queue
Q.lock, Q.fence, Q.queue = KEYS[3], KEYS[4], KEYS[5]
Q.retention, Q.publish, Q.counts = ARGV[4], ARGV[5], ARGV[6]

redis.call('set', KEYS[1], '1', 'px', ARGV[2])
local removed = 0
local prefix = ARGV[1] .. '|'
for _, member in ipairs(redis.call('zrange', KEYS[2], 0, -1)) do
    if member == ARGV[1] or string.sub(member, 1, #prefix) == prefix then
        removed = removed + redis.call('zrem', KEYS[2], member)
    end
end
if removed == 0 then
    return {0, '', 0}
end
local now_ms = clock()
redis.call('zremrangebyscore', KEYS[2], '-inf', now_ms)
if redis.call('zcard', KEYS[2]) == 0 and redis.call('exists', KEYS[3]) == 0 then
    local next = hand_over(nil)
    if next ~= '' then
        return {1, next, Q.offer}
    end
end
announce(ARGV[3], '*')
return {1, '', 0}
