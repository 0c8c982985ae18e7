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
