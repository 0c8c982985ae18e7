-- Release a queued lock's hold by its owner (reentrant and fair locks, multi-lock members): the hot path of
-- release.lua's 'release' mode, with only the keys and arguments it needs (each one costs Redis CPU on every call).
-- With nobody queued it deletes the key and replies with one integer; otherwise it offers the lock to the first live
-- waiter exactly as release.lua does (lib/offer.lua, then lib/queue.lua's hand_over for the waiters behind a gone one).
-- KEYS[1] lock key  (string: the hold 'owner|fencing token' or 'owner|')
-- KEYS[2] queue key (list of waiter entries 'owner|offer|channel', oldest first)
-- KEYS[3] fence key
-- ARGV[1] owner: owner token
-- ARGV[2] fenceRetentionMillis: fence counter retention in ms, or '0' when fencing is off
-- ARGV[3] publish: 'publish' or 'spublish'
-- ARGV[4] countsListeners: '1' when the server's subscriber count of a wake channel proves its client listens, else '0'
-- Returns 1 (released, nobody queued) or 0 (not the caller's hold: nothing touched); {1, new owner or '', its offer
-- time in ms or 0, owner} when it released with waiters queued.
local holder = redis.call('get', KEYS[1])
if not holder or string.sub(holder, 1, #ARGV[1] + 1) ~= ARGV[1] .. '|' then
    return 0
end
local popped = redis.call('lpop', KEYS[2])
if not popped then
    redis.call('del', KEYS[1])
    return 1
end
--@include fence
--@include hold
--@include offer
-- Offered to the first waiter, the common case of contention, before the queue functions are defined (each
-- definition, and the table Q, costs Redis CPU on every call).
local next, offer_ms = offer(KEYS[1], KEYS[3], ARGV[2], ARGV[3], ARGV[4], popped)
if next then
    return {1, next, offer_ms, ARGV[1]}
end
-- The first waiter is gone (its client does not listen): on to the next live one.
--@include queue
Q.lock, Q.fence, Q.queue = KEYS[1], KEYS[3], KEYS[2]
Q.retention, Q.publish, Q.counts = ARGV[2], ARGV[3], ARGV[4]
next = hand_over(nil, nil)
if next == '' then
    redis.call('del', KEYS[1])
    return {1, '', 0, ARGV[1]}
end
return {1, next, Q.offer, ARGV[1]}
