-- Force a lock name free whoever holds it (operator tool), in one step: read the holder, remove its hold and hand the
-- lock to the next live queued waiter of that lock (as release.lua does), or wake the read/write lock's waiters with
-- '*' when nobody is queued. Mode 'any' looks at every kind of the name (the reentrant or fair lock first, then the
-- read/write lock); 'rw' only at the read/write lock (its writer and every reader).
-- KEYS[1] lock key        (the hold 'owner|token' of the reentrant or fair lock)
-- KEYS[2] fence key
-- KEYS[3] queue key       (waiters of the lock key)
-- KEYS[4] write key       (the writer's hold 'owner|token')
-- KEYS[5] readers key     (sorted set: reader hold 'owner|token' -> expiry in server ms)
-- KEYS[6] writer queue    (waiters of the write key)
-- ARGV[1] scope: 'any' or 'rw'
-- ARGV[2] fenceRetentionMillis: fence counter retention in ms, or '0' when fencing is off
-- ARGV[3] publish: 'publish' or 'spublish'
-- ARGV[4] countsListeners: '1' when the server's subscriber count of a wake channel proves its client listens, else '0'
-- ARGV[5] broadcastChannel: the read/write lock's broadcast channel
-- Returns {mode, released owner, owner now offered the lock or '', its offer time in ms or 0}; mode is 'lock',
-- 'write', 'read' (the owner named is the reader whose hold lasts longest) or '' when nothing was held.
--@include fence
--@include hold
--@include offer
--@include queue
Q.fence, Q.retention, Q.publish, Q.counts = KEYS[2], ARGV[2], ARGV[3], ARGV[4]

local function hand_over_or_free(lock, queue)
    Q.lock, Q.queue = lock, queue
    local next = hand_over(nil)
    if next == '' then
        redis.call('del', lock)
    end
    return next
end

if ARGV[1] == 'any' then
    local hold = redis.call('get', KEYS[1])
    if hold then
        local next = hand_over_or_free(KEYS[1], KEYS[3])
        return {'lock', split_hold(hold), next, Q.offer or 0}
    end
end
local now_ms = clock()
redis.call('zremrangebyscore', KEYS[5], '-inf', now_ms)
local mode, owner = '', ''
local writer = redis.call('get', KEYS[4])
if writer then
    mode, owner = 'write', split_hold(writer)
else
    local last = redis.call('zrange', KEYS[5], -1, -1)[1]
    if last then
        mode, owner = 'read', split_hold(last)
    end
end
if mode == '' then
    return {'', '', '', 0}
end
redis.call('del', KEYS[4], KEYS[5])
local next = hand_over_or_free(KEYS[4], KEYS[6])
if next == '' then
    announce(ARGV[5], '*')
end
return {mode, owner, next, Q.offer or 0}
