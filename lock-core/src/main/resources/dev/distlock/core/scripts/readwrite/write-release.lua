-- Release, leave or abandon the write hold of a read/write lock, force it free, or pass on an offer that lapsed. When
-- it is freed and no reader holds (a writer may have downgraded), it is offered to the first live queued writer as in
-- release.lua; otherwise waiting readers are woken with '*' on the lock's broadcast channel, as they are when a queued
-- writer gives up ('leave', 'abandon') while no writer holds the lock.
-- KEYS[1] write key
-- KEYS[2] fence key
-- KEYS[3] writer queue
-- KEYS[4] tombstone key (mode 'abandon'; any key of the lock's hash tag otherwise)
-- KEYS[5] readers key
-- ARGV[1] mode: 'release' (the owner's hold), 'leave' (a waiter gives up: its entry, and its hold if it was handed
--         the lock meanwhile), 'abandon' (an outcome is unknown: tombstone, every entry and the hold of the owner),
--         'force' (whoever holds it), 'pass' (nobody holds it: an offer lapsed; offer it to the next live waiter)
-- ARGV[2] owner: owner token ('' for 'force' and 'pass')
-- ARGV[3] fenceRetentionMillis: fence counter retention in ms, or '0' when fencing is off
-- ARGV[4] publish: 'publish' or 'spublish'
-- ARGV[5] countsListeners: '1' when the server's subscriber count of a wake channel proves its client listens, else '0'
-- ARGV[6] modeArgument: 'leave': the caller's queue entry; 'abandon': tombstone lifetime in ms; otherwise ''
-- ARGV[7] readersChannel: the readers' broadcast channel
-- Returns as release.lua.
--@include fence
--@include hold
--@include offer
--@include queue
--@include release-modes
Q.lock, Q.fence, Q.queue, Q.tombstone = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
Q.retention, Q.publish, Q.counts = ARGV[3], ARGV[4], ARGV[5]
Q.mode, Q.owner, Q.mode_arg = ARGV[1], ARGV[2], ARGV[6]

local released = ''
if ARGV[1] == 'pass' then
    if redis.call('exists', KEYS[1]) == 1 then
        return {0, '', 0, ''}
    end
else
    local allowed, owner = may_release()
    if not allowed then
        -- A queued writer that gives up no longer keeps readers out: wake the readers it refused.
        if Q.left and redis.call('exists', KEYS[1]) == 0 then
            announce(ARGV[7], '*')
        end
        return {0, '', 0, ''}
    end
    released = owner
end
local now_ms = clock()
redis.call('zremrangebyscore', KEYS[5], '-inf', now_ms)
local next = ''
if redis.call('zcard', KEYS[5]) == 0 then
    next = hand_over(nil)
end
if next == '' then
    redis.call('del', KEYS[1])
    announce(ARGV[7], '*')
    if ARGV[1] == 'pass' then
        return {0, '', 0, ''}
    end
    return {1, '', 0, released}
end
return {1, next, Q.offer, released}
