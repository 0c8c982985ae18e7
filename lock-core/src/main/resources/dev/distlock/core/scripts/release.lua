-- Release, leave or abandon a queued lock (reentrant and fair locks, multi-lock members), or force it free. When the
-- lock is freed and waiters queue, it is handed straight to the first live one: the key is set to its owner with its
-- lease, its fencing token is minted, and only its client is told, on its wake channel, with
-- 'owner|token|server time in us'. A waiter whose client does not hear the announcement (its process died, its pub/sub
-- connection is down) or whose deadline passed is skipped. With nobody queued nothing is published.
-- KEYS[1] lock key
-- KEYS[2] fence key
-- KEYS[3] queue key     (list of waiter entries 'owner|leaseMs|deadlineMs|channel', oldest first)
-- KEYS[4] tombstone key (mode 'abandon'; any key of the lock's hash tag otherwise)
-- ARGV[1] mode: 'release' (the owner's hold), 'leave' (a waiter gives up: its entry, and its hold if it was handed
--         the lock meanwhile), 'abandon' (an outcome is unknown: tombstone, every entry and the hold of the owner),
--         'force' (whoever holds it)
-- ARGV[2] owner token ('' for 'force')
-- ARGV[3] fence counter retention in ms, or '0' when fencing is off
-- ARGV[4] 'publish' or 'spublish'
-- ARGV[5] '1' when the announcement's receiver count proves the waiter's client listens, '0' when it cannot
-- ARGV[6] 'leave': the caller's queue entry; 'abandon': tombstone lifetime in ms; otherwise ''
-- Returns {1, new owner or ''} when a hold was removed (the caller's; any for 'force'), {0, ''} when there was none.
-- A plain release with nobody queued, the common case, runs here, before the shared functions below are defined
-- (defining them costs Redis about as much CPU as this path's three commands).
local popped = nil
if ARGV[1] == 'release' then
    if redis.call('get', KEYS[1]) ~= ARGV[2] then
        return {0, ''}
    end
    popped = redis.call('lpop', KEYS[3])
    if not popped then
        redis.call('del', KEYS[1])
        return {1, ''}
    end
end
--@include queue
--@include release
Q.lock, Q.fence, Q.queue = KEYS[1], KEYS[2], KEYS[3]
Q.retention, Q.publish, Q.counts = ARGV[3], ARGV[4], ARGV[5]

-- A release that got here owns the lock and popped the first waiter already.
if not popped and not may_release() then
    return {0, ''}
end
local next = hand_over(nil, popped)
if next == '' then
    redis.call('del', KEYS[1])
end
return {1, next}
