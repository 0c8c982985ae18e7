-- Leave or abandon a queued lock (reentrant and fair locks, multi-lock members), force it free, or pass on an offer
-- that lapsed; an owner's plain release runs unlock.lua, which takes fewer keys and arguments ('release' here does the
-- same). When the lock is freed and waiters queue, it is offered straight to the first live one (lib/offer.lua): the
-- key is set to its hold for its offer time, and only its client is told, on its wake channel, with that hold; the
-- waiter confirms with a renewal to its lease. A waiter whose client does not listen (its process died, its pub/sub
-- connection is down) is skipped. With nobody queued nothing is published.
-- KEYS[1] lock key      (string: the hold 'owner|fencing token')
-- KEYS[2] fence key
-- KEYS[3] queue key     (list of waiter entries 'owner|offer|channel', oldest first)
-- KEYS[4] tombstone key (mode 'abandon'; any key of the lock's hash tag otherwise)
-- ARGV[1] mode: 'release' (the owner's hold), 'leave' (a waiter gives up: its entry, and its hold if it was handed
--         the lock meanwhile), 'abandon' (an outcome is unknown: tombstone, every entry and the hold of the owner),
--         'force' (whoever holds it), 'pass' (nobody holds it: an offer lapsed; offer it to the next live waiter)
-- ARGV[2] owner: owner token ('' for 'force' and 'pass')
-- ARGV[3] fenceRetentionMillis: fence counter retention in ms, or '0' when fencing is off
-- ARGV[4] publish: 'publish' or 'spublish'
-- ARGV[5] countsListeners: '1' when the server's subscriber count of a wake channel proves its client listens, else '0'
-- ARGV[6] modeArgument: 'leave': the caller's queue entry; 'abandon': tombstone lifetime in ms; otherwise ''
-- Returns {1, new owner or '', its offer time in ms or 0, released owner} when a hold was removed (the caller's; any
-- for 'force'; none for 'pass', which hands over a free lock), {0, '', 0, ''} when there was none (for 'pass': the
-- lock is held, or nobody waits).
--@include fence
--@include hold
--@include offer
--@include queue
--@include release-modes
Q.lock, Q.fence, Q.queue, Q.tombstone = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
Q.retention, Q.publish, Q.counts = ARGV[3], ARGV[4], ARGV[5]
Q.mode, Q.owner, Q.mode_arg = ARGV[1], ARGV[2], ARGV[6]

if ARGV[1] == 'pass' then
    if redis.call('exists', KEYS[1]) == 1 then
        return {0, '', 0, ''}
    end
    local reply = pass_on('', nil)
    if reply[2] == '' then
        return {0, '', 0, ''}
    end
    return reply
end
local allowed, owner = may_release()
if not allowed then
    return {0, '', 0, ''}
end
return pass_on(owner, nil)
