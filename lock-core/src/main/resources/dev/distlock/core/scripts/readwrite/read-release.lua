-- Release one read hold; when the last reader leaves, offer the lock to the first live queued writer (as in
-- release.lua), or wake waiting readers and writers with '*' when no writer is queued.
-- KEYS[1] readers key   (sorted set: reader hold 'owner|token' -> expiry in server ms)
-- KEYS[2] write key
-- KEYS[3] fence key
-- KEYS[4] writer queue
-- ARGV[1] hold: the reader's hold 'owner|token'
-- ARGV[2] broadcastChannel: the lock's broadcast channel
-- ARGV[3] fenceRetentionMillis: fence counter retention in ms, or '0' when fencing is off
-- ARGV[4] publish: 'publish' or 'spublish'
-- ARGV[5] countsListeners: '1' when the server's subscriber count of a wake channel proves its client listens, else '0'
-- Returns {1, writer offered the lock or '', its offer time in ms or 0} when the caller's hold was removed,
-- {0, '', 0} when it was gone already.
--@include fence
--@include hold
--@include offer
--@include queue
Q.lock, Q.fence, Q.queue = KEYS[2], KEYS[3], KEYS[4]
Q.retention, Q.publish, Q.counts = ARGV[3], ARGV[4], ARGV[5]

if redis.call('zrem', KEYS[1], ARGV[1]) == 0 then
    return {0, '', 0}
end
local now_ms = clock()
redis.call('zremrangebyscore', KEYS[1], '-inf', now_ms)
if redis.call('zcard', KEYS[1]) == 0 then
    redis.call('del', KEYS[1])
    if redis.call('exists', KEYS[2]) == 0 then
        local next = hand_over(nil)
        if next ~= '' then
            return {1, next, Q.offer}
        end
        redis.call('del', KEYS[2])
        announce(ARGV[2], '*')
    end
end
return {1, '', 0}
