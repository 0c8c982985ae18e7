-- Shared by the queued-lock scripts (spliced in where a script says '--@include queue'; see LuaScript).
-- The including script sets Q before calling: Q.lock, Q.fence, Q.queue (keys), Q.retention (fence counter retention
-- in ms, '0' when fencing is off), Q.publish ('publish' or 'spublish'), Q.counts ('1' when a publish's receiver count
-- proves the waiter's client listens).
local Q = {}
local clock_t = nil
-- Server time, read once per script: milliseconds and microseconds.
local function clock()
    if not clock_t then
        clock_t = redis.call('time')
    end
    return tonumber(clock_t[1]) * 1000 + math.floor(tonumber(clock_t[2]) / 1000),
        tonumber(clock_t[1]) * 1000000 + tonumber(clock_t[2])
end
-- Mints the next fencing token. Tokens must keep increasing after the counter key is lost (FLUSHALL, restart
-- without persistence): never below the server clock in microseconds. One command in the usual case: write the
-- clock and read the last token; only a counter ahead of the clock needs a second write. Lua numbers are doubles;
-- both operands stay far below 2^53.
local function mint()
    if Q.retention == '0' then
        return '0'
    end
    local _, now_us = clock()
    local token = string.format('%.0f', now_us)
    local last = tonumber(redis.call('set', Q.fence, token, 'px', Q.retention, 'get') or '0') or 0
    if last + 1 > now_us then
        token = string.format('%.0f', last + 1)
        redis.call('set', Q.fence, token, 'px', Q.retention)
    end
    return token
end
-- Pops waiters (entries 'owner|leaseMs|deadlineMs|channel') until one is live and hands it the lock: the lock key
-- gets its owner token and lease, a fencing token is minted, and only its client is told, on its wake channel, with
-- 'owner|token|server time in us'. A waiter whose deadline passed or whose client hears nothing is skipped. Stops
-- without granting at the entry of 'self' (the caller's own, when it is an acquire). Returns the new owner, or ''
-- when nobody live is queued; may leave the lock key set for a skipped waiter, so the caller deletes it then.
local function hand_over(self)
    while true do
        local entry = redis.call('lpop', Q.queue)
        if not entry then
            return ''
        end
        local owner, lease, deadline, channel = string.match(entry, '^(.-)|(%d+)|(%d+)|(.*)$')
        local now_ms, now_us = clock()
        if owner and owner == self then
            return self
        end
        if owner and tonumber(deadline) > now_ms then
            local token = mint()
            redis.call('set', Q.lock, owner, 'px', lease)
            local heard = redis.call(Q.publish, channel, owner .. '|' .. token .. '|' .. string.format('%.0f', now_us))
            if heard > 0 or Q.counts == '0' then
                return owner
            end
        end
    end
end
