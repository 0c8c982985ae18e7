-- Shared by every script that grants a queued lock or a read/write lock (spliced in where a script says
-- '--@include fence'; see LuaScript): the server clock and the fencing token rule, stated once. Two functions only:
-- acquire.lua defines them before its uncontended path, where every definition costs Redis CPU on every call.
local clock_ms, clock_us = nil, nil
-- Server time, read once per script: milliseconds and microseconds.
local function clock()
    if not clock_ms then
        local t = redis.call('time')
        local seconds, micros = tonumber(t[1]), tonumber(t[2])
        clock_ms, clock_us = seconds * 1000 + math.floor(micros / 1000), seconds * 1000000 + micros
    end
    return clock_ms, clock_us
end
-- Mints the next fencing token of a lock name: next = max(last + 1, server clock in microseconds), written back with
-- the counter's retention. The clock floor keeps tokens increasing when the counter went back or vanished: after a
-- failover to a replica that missed the last increments, a restart that loaded an older snapshot, FLUSHALL or the
-- counter's expiry. Assumption: the masters' clocks agree to far less than a failover takes (NTP keeps them within
-- milliseconds; a failover takes seconds), and fewer than one token a microsecond is minted on average. Returns the
-- token as a string ('0' when fencing is off: retention '0'). Lua numbers are doubles; tokens stay far below 2^53.
local function mint(fence, retention)
    if retention == '0' then
        return '0'
    end
    local _, now_us = clock()
    local token = string.format('%.0f', now_us)
    local last = tonumber(redis.call('set', fence, token, 'px', retention, 'get') or '0') or 0
    if last >= now_us then
        token = string.format('%.0f', last + 1)
        redis.call('set', fence, token, 'px', retention)
    end
    return token
end
