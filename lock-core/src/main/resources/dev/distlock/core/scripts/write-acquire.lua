-- Acquire the write hold of a read/write lock, or check on a queued writer: exclusive of readers and other writers.
-- Writers queue in arrival order and are handed the lock by the release of the writer or of the last reader
-- (write-release.lua, read-release.lua); queued writers keep new readers out (writer preference, see read-acquire.lua).
-- KEYS[1] write key     (string: writer owner token, with PX expiry)
-- KEYS[2] fence key
-- KEYS[3] writer queue  (list of waiter entries 'owner|leaseMs|deadlineMs|channel', oldest first)
-- KEYS[4] tombstone key (exists when the client abandoned this owner's acquisition: never grant or queue it)
-- KEYS[5] readers key   (sorted set: reader owner token -> expiry in server ms)
-- ARGV[1..8] as for acquire.lua
-- Returns as acquire.lua; while readers hold it, the holder pttl is the time until the last reader's lease ends.
--@include queue
Q.lock, Q.fence, Q.queue = KEYS[1], KEYS[2], KEYS[3]
Q.retention, Q.publish, Q.counts = ARGV[3], ARGV[6], ARGV[7]

if redis.call('exists', KEYS[4]) == 1 then
    return {0, -1, '', -1, '0', ''}
end
local now_ms0 = clock()
redis.call('zremrangebyscore', KEYS[5], '-inf', now_ms0)
local holder = redis.call('get', KEYS[1])
if holder == ARGV[1] then
    local token = '0'
    if ARGV[3] ~= '0' then
        token = redis.call('get', KEYS[2]) or '0'
    end
    return {1, token, redis.call('pttl', KEYS[1])}
end
local last_reader = redis.call('zrange', KEYS[5], -1, -1, 'withscores')[2]
if not holder and not last_reader then
    local next = hand_over(ARGV[1])
    if next == '' or next == ARGV[1] then
        local token = mint()
        redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2])
        return {1, token, tonumber(ARGV[2])}
    end
    holder = next
end
local pttl = -1
if holder then
    pttl = redis.call('pttl', KEYS[1])
else
    holder = ''
    pttl = tonumber(last_reader) - now_ms0
end
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
