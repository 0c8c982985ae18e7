-- Release, leave or abandon the write hold of a read/write lock, or force it free. When it is freed and no reader
-- holds (a writer may have downgraded), it is handed to the first live queued writer as in release.lua; otherwise
-- waiting readers are woken with '*' on the lock's broadcast channel.
-- KEYS[1] write key
-- KEYS[2] fence key
-- KEYS[3] writer queue
-- KEYS[4] tombstone key (mode 'abandon'; any key of the lock's hash tag otherwise)
-- KEYS[5] readers key
-- ARGV[1..6] as for release.lua
-- ARGV[7] the readers' broadcast channel
-- Returns as release.lua.
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
local now_ms = clock()
redis.call('zremrangebyscore', KEYS[5], '-inf', now_ms)
local next = ''
if redis.call('zcard', KEYS[5]) == 0 then
    next = hand_over()
end
if next == '' then
    redis.call('del', KEYS[1])
    redis.call('publish', ARGV[7], '*')
end
return {1, next}
