-- Acquire a queued lock (reentrant and fair locks, multi-lock members) for a new owner, or check on a queued waiter.
-- Waiters queue in arrival order and a release hands the lock straight to the first live one (release.lua), so an
-- acquire never takes the lock ahead of a live waiter (no barging); a free lock with waiters (the holder's lease ran
-- out) is handed over here first.
-- KEYS[1] lock key      (string: owner token, with PX expiry)
-- KEYS[2] fence key     (string: last fencing token issued for this lock)
-- KEYS[3] queue key     (list of waiter entries 'owner|leaseMs|deadlineMs|channel', oldest first)
-- KEYS[4] tombstone key (exists when the client abandoned this owner's acquisition: never grant or queue it)
-- ARGV[1] owner token
-- ARGV[2] lease in ms (> 0)
-- ARGV[3] fence counter retention in ms, or '0' when fencing is off (token 0, no fence key written)
-- ARGV[4] how long the caller will wait in ms; '0' for a single attempt that never queues
-- ARGV[5] the caller's wake channel (its client is subscribed there while it waits)
-- ARGV[6] 'publish' or 'spublish': how a handoff is announced
-- ARGV[7] '1' when the announcement's receiver count proves the waiter's client listens, '0' when it cannot
-- ARGV[8] the caller's queue entry from an earlier reply (a check: never queues), or '' when it is not queued
-- Returns {1, token, remaining lease in ms} when the caller holds the lock (granted now, or handed over earlier),
-- or {0, holder pttl or -1, queue entry or '', position in the queue or -1, server time in us, holder owner or ''}.
--@include queue
Q.lock, Q.fence, Q.queue = KEYS[1], KEYS[2], KEYS[3]
Q.retention, Q.publish, Q.counts = ARGV[3], ARGV[6], ARGV[7]

if redis.call('exists', KEYS[4]) == 1 then
    return {0, -1, '', -1, '0', ''}
end
local holder = redis.call('get', KEYS[1])
if holder == ARGV[1] then
    local token = '0'
    if ARGV[3] ~= '0' then
        token = redis.call('get', KEYS[2]) or '0'
    end
    return {1, token, redis.call('pttl', KEYS[1])}
end
if not holder then
    local next = hand_over(ARGV[1])
    if next == '' or next == ARGV[1] then
        local token = mint()
        redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2])
        return {1, token, tonumber(ARGV[2])}
    end
    holder = next
end
local pttl = redis.call('pttl', KEYS[1])
if ARGV[4] == '0' then
    return {0, pttl, '', -1, '0', holder}
end
local now_ms, now_us = clock()
local now_str = string.format('%.0f', now_us)
if ARGV[8] ~= '' then
    -- A check never queues: if the entry is gone (skipped), the caller queues again with a fresh attempt, which it
    -- sends only while still waiting, so a late check can never leave an entry behind for a finished acquisition.
    local position = redis.call('lpos', KEYS[3], ARGV[8])
    if position then
        return {0, pttl, ARGV[8], position, now_str, holder}
    end
    return {0, pttl, '', -1, now_str, holder}
end
local wait = tonumber(ARGV[4])
local entry = ARGV[1] .. '|' .. ARGV[2] .. '|' .. string.format('%.0f', now_ms + wait) .. '|' .. ARGV[5]
local length = redis.call('rpush', KEYS[3], entry)
-- The queue disappears by itself once the last waiter's deadline has passed.
if length == 1 then
    redis.call('pexpire', KEYS[3], wait + 1000)
else
    redis.call('pexpire', KEYS[3], wait + 1000, 'gt')
end
return {0, pttl, entry, length - 1, now_str, holder}
