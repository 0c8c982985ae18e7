-- Release one read hold; when the last reader leaves, hand the lock to the first live queued writer (as in
-- release.lua), or wake waiting readers and writers with '*' when no writer is queued.
-- KEYS[1] readers key
-- KEYS[2] write key
-- KEYS[3] fence key
-- KEYS[4] writer queue
-- ARGV[1] owner token
-- ARGV[2] the lock's broadcast channel
-- ARGV[3] fence counter retention in ms, or '0' when fencing is off
-- ARGV[4] 'publish' or 'spublish'
-- ARGV[5] '1' when the announcement's receiver count proves the waiter's client listens, '0' when it cannot
-- Returns 1 when the caller's hold was removed, 0 when it was gone already.
local clock_t = nil
local function clock()
    if not clock_t then
        clock_t = redis.call('time')
    end
    return tonumber(clock_t[1]) * 1000 + math.floor(tonumber(clock_t[2]) / 1000),
        tonumber(clock_t[1]) * 1000000 + tonumber(clock_t[2])
end
local function mint()
    if ARGV[3] == '0' then
        return '0'
    end
    local _, now_us = clock()
    -- One command in the usual case: write the clock, read the last token; only a counter ahead of the clock
    -- (many grants within one microsecond, or a clock that stepped back) needs a second write.
    local token = string.format('%.0f', now_us)
    local last = tonumber(redis.call('set', KEYS[3], token, 'px', ARGV[3], 'get') or '0') or 0
    if last + 1 > now_us then
        token = string.format('%.0f', last + 1)
        redis.call('set', KEYS[3], token, 'px', ARGV[3])
    end
    return token
end
local function hand_over()
    while true do
        local entry = redis.call('lpop', KEYS[4])
        if not entry then
            return ''
        end
        local owner, lease, deadline, channel = string.match(entry, '^(.-)|(%d+)|(%d+)|(.*)$')
        local now_ms, now_us = clock()
        if owner and tonumber(deadline) > now_ms then
            local token = mint()
            redis.call('set', KEYS[2], owner, 'px', lease)
            local heard = redis.call(ARGV[4], channel, owner .. '|' .. token .. '|' .. string.format('%.0f', now_us))
            if heard > 0 or ARGV[5] == '0' then
                return owner
            end
        end
    end
end

if redis.call('zrem', KEYS[1], ARGV[1]) == 0 then
    return 0
end
local now_ms = clock()
redis.call('zremrangebyscore', KEYS[1], '-inf', now_ms)
if redis.call('zcard', KEYS[1]) == 0 then
    redis.call('del', KEYS[1])
    if redis.call('exists', KEYS[2]) == 0 and hand_over() == '' then
        redis.call('del', KEYS[2])
        redis.call('publish', ARGV[2], '*')
    end
end
return 1
