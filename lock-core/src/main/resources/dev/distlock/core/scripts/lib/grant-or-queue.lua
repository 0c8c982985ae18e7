-- Shared by acquire.lua and write-acquire.lua, which take the same KEYS[1..4] and ARGV[1..9] (see acquire.lua);
-- spliced in after lib/queue.lua.
-- Whether a stored hold (the lock key's value) is the caller's.
local function is_callers(value)
    return value ~= nil and value ~= false and string.sub(value, 1, #ARGV[1] + 1) == ARGV[1] .. '|'
end
-- The caller holds the lock already: handed over while the announcement was lost (an offer), or a replayed attempt.
-- This check confirms it: the key gets the caller's full lease, counted from this check, and its own token.
local function granted_earlier(value)
    local _, token = split_hold(value)
    redis.call('pexpire', KEYS[1], ARGV[2])
    return {1, token, tonumber(ARGV[2])}
end
-- The lock is free: it goes to the first live waiter, or to the caller when nobody live is ahead of it (no barging).
-- Returns the caller's grant, or nil and the waiter it was offered to.
local function take_free()
    local next = hand_over(ARGV[1])
    if next == '' or next == ARGV[1] then
        local token = mint(KEYS[2], ARGV[3])
        redis.call('set', KEYS[1], hold_of(ARGV[1], token), 'px', ARGV[2])
        return {1, token, tonumber(ARGV[2])}, nil
    end
    return nil, next
end
-- Refused: a single attempt only reports; a check reports the caller's place and never queues (if the entry is gone,
-- skipped, the caller queues again with a fresh attempt, which it sends only while still waiting, so a late check can
-- never leave an entry behind for a finished acquisition); a fresh attempt queues the caller. 'holder' is the stored
-- hold in the way ('' when readers hold the lock); the reply names its owner.
local function refuse(pttl, holder)
    local holder_owner = ''
    if holder ~= '' then
        holder_owner = split_hold(holder)
    end
    if ARGV[4] == '0' then
        return {0, pttl, '', -1, '0', holder_owner}
    end
    local now_ms, now_us = clock()
    local now_str = string.format('%.0f', now_us)
    if ARGV[8] ~= '' then
        local position = redis.call('lpos', KEYS[3], ARGV[8])
        if position then
            return {0, pttl, ARGV[8], position, now_str, holder_owner}
        end
        return {0, pttl, '', -1, now_str, holder_owner}
    end
    local wait = tonumber(ARGV[4])
    local offer = math.min(tonumber(ARGV[2]), tonumber(ARGV[9]))
    local entry = ARGV[1] .. '|' .. string.format('%.0f', offer) .. '|' .. string.format('%.0f', now_ms + wait) .. '|'
        .. ARGV[5]
    local length = redis.call('rpush', KEYS[3], entry)
    -- The queue disappears by itself once the last waiter's deadline has passed.
    if length == 1 then
        redis.call('pexpire', KEYS[3], wait + 1000)
    else
        redis.call('pexpire', KEYS[3], wait + 1000, 'gt')
    end
    return {0, pttl, entry, length - 1, now_str, holder_owner}
end
