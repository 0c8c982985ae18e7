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
-- Mints the next fencing token: one INCR. Tokens must keep increasing after the counter key is lost (FLUSHALL,
-- restart without persistence, expiry), so a counter found missing (or below any clock, left by a failed script)
-- restarts at the server clock in microseconds, above every earlier token as long as fewer than one token a
-- microsecond was issued on average. The counter's retention is renewed at creation and at every 128th token rather
-- than at each (that would cost a second command per grant); a counter that expires restarts at the clock. Lua numbers
-- are doubles; tokens stay far below 2^53.
local function mint()
    if Q.retention == '0' then
        return '0'
    end
    -- The calling script may have run the INCR itself (its uncontended path): Q.minted, used once.
    local token = Q.minted or redis.call('incr', Q.fence)
    Q.minted = nil
    if token < 1e12 then
        if not pcall(clock) then
            -- Scripts are not rolled back: take the INCR back, then read the clock again to fail with Redis's own
            -- error (an ACL without TIME).
            if token == 1 then
                redis.call('del', Q.fence)
            else
                redis.call('set', Q.fence, token - 1, 'keepttl')
            end
            clock()
        end
        local _, now_us = clock()
        token = math.max(token, now_us)
        redis.call('set', Q.fence, string.format('%.0f', token), 'px', Q.retention)
    elseif token % 128 == 0 then
        redis.call('pexpire', Q.fence, Q.retention)
    end
    return string.format('%.0f', token)
end
-- Pops waiters (entries 'owner|leaseMs|deadlineMs|channel') until one is live and hands it the lock: the lock key
-- gets its owner token and lease, a fencing token is minted, and only its client is told, on its wake channel, with
-- 'owner|token|server time in us'. A waiter whose deadline passed or whose client hears nothing is skipped. Stops
-- without granting at the entry of 'self' (the caller's own, when it is an acquire). 'popped' is an entry the caller
-- popped already (or nil), looked at first. Returns the new owner, or '' when nobody live is queued; may leave the
-- lock key set for a skipped waiter (then Q.stale is true), so the caller deletes or overwrites it then.
local function hand_over(self, popped)
    while true do
        local entry = popped or redis.call('lpop', Q.queue)
        popped = nil
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
            Q.stale = true
            local heard = redis.call(Q.publish, channel, owner .. '|' .. token .. '|' .. string.format('%.0f', now_us))
            if heard > 0 or Q.counts == '0' then
                return owner
            end
        end
    end
end
