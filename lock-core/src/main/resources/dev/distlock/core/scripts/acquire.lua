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
local clock_t = nil
local function clock()
    if not clock_t then
        clock_t = redis.call('time')
    end
    return tonumber(clock_t[1]) * 1000 + math.floor(tonumber(clock_t[2]) / 1000),
        tonumber(clock_t[1]) * 1000000 + tonumber(clock_t[2])
end
-- Tokens must keep increasing after the counter key is lost (FLUSHALL, restart without persistence): never below
-- the server clock in microseconds. Lua numbers are doubles; both operands stay far below 2^53.
local function mint()
    if ARGV[3] == '0' then
        return '0'
    end
    local _, now_us = clock()
    -- One command in the usual case: write the clock, read the last token; only a counter ahead of the clock
    -- (many grants within one microsecond, or a clock that stepped back) needs a second write.
    local token = string.format('%.0f', now_us)
    local last = tonumber(redis.call('set', KEYS[2], token, 'px', ARGV[3], 'get') or '0') or 0
    if last + 1 > now_us then
        token = string.format('%.0f', last + 1)
        redis.call('set', KEYS[2], token, 'px', ARGV[3])
    end
    return token
end
-- Pops waiters until one is live and hands it the lock; stops without granting at the caller's own entry.
-- Returns the new owner, or '' when nobody live is queued. May leave KEYS[1] set for a skipped waiter.
local function hand_over(self)
    while true do
        local entry = redis.call('lpop', KEYS[3])
        if not entry then
            return ''
        end
        local owner, lease, deadline, channel = string.match(entry, '^(.-)|(%d+)|(%d+)|(.*)$')
        local now_ms, now_us = clock()
        if owner == self then
            return self
        end
        if owner and tonumber(deadline) > now_ms then
            local token = mint()
            redis.call('set', KEYS[1], owner, 'px', lease)
            local heard = redis.call(ARGV[6], channel, owner .. '|' .. token .. '|' .. string.format('%.0f', now_us))
            if heard > 0 or ARGV[7] == '0' then
                return owner
            end
        end
    end
end

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
