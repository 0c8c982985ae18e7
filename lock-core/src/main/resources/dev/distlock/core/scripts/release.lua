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
    local last = tonumber(redis.call('set', KEYS[2], token, 'px', ARGV[3], 'get') or '0') or 0
    if last + 1 > now_us then
        token = string.format('%.0f', last + 1)
        redis.call('set', KEYS[2], token, 'px', ARGV[3])
    end
    return token
end
local function hand_over()
    while true do
        local entry = redis.call('lpop', KEYS[3])
        if not entry then
            return ''
        end
        local owner, lease, deadline, channel = string.match(entry, '^(.-)|(%d+)|(%d+)|(.*)$')
        local now_ms, now_us = clock()
        if owner and tonumber(deadline) > now_ms then
            local token = mint()
            redis.call('set', KEYS[1], owner, 'px', lease)
            local heard = redis.call(ARGV[4], channel, owner .. '|' .. token .. '|' .. string.format('%.0f', now_us))
            if heard > 0 or ARGV[5] == '0' then
                return owner
            end
        end
    end
end

local mode = ARGV[1]
if mode == 'abandon' then
    redis.call('set', KEYS[4], '1', 'px', ARGV[6])
    local prefix = ARGV[2] .. '|'
    for _, entry in ipairs(redis.call('lrange', KEYS[3], 0, -1)) do
        if string.sub(entry, 1, #prefix) == prefix then
            redis.call('lrem', KEYS[3], 0, entry)
        end
    end
elseif mode == 'leave' then
    redis.call('lrem', KEYS[3], 1, ARGV[6])
end
local holder = redis.call('get', KEYS[1])
if not holder or (mode ~= 'force' and holder ~= ARGV[2]) then
    return {0, ''}
end
local next = hand_over()
if next == '' then
    redis.call('del', KEYS[1])
end
return {1, next}
