-- Shared by acquire.lua and write-acquire.lua, which take the same KEYS[1..4] and ARGV[1..8] (see acquire.lua);
-- spliced in after lib/queue.lua.
-- The caller holds the lock already: it was handed over while the announcement was lost. Its token is the last one.
local function granted_earlier()
    local token = '0'
    if ARGV[3] ~= '0' then
        token = redis.call('get', KEYS[2]) or '0'
    end
    return {1, token, redis.call('pttl', KEYS[1])}
end
-- The lock is free: it goes to the first live waiter, or to the caller when nobody live is ahead of it (no barging).
-- 'preset' tells that the lock key was already set for the caller (acquire.lua's SET NX). Returns the caller's grant,
-- or nil and the waiter it was handed to.
local function take_free(preset)
    local next = hand_over(ARGV[1])
    if next == '' or next == ARGV[1] then
        if Q.stale or not preset then
            redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2])
        end
        return {1, mint(), tonumber(ARGV[2])}, nil
    end
    return nil, next
end
-- Refused: a single attempt only reports; a check reports the caller's place and never queues (if the entry is gone,
-- skipped, the caller queues again with a fresh attempt, which it sends only while still waiting, so a late check can
-- never leave an entry behind for a finished acquisition); a fresh attempt queues the caller.
local function refuse(pttl, holder)
    if ARGV[4] == '0' then
        return {0, pttl, '', -1, '0', holder}
    end
    local now_ms, now_us = clock()
    local now_str = string.format('%.0f', now_us)
    if ARGV[8] ~= '' then
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
end
