-- Shared by the queued-lock scripts (spliced in where a script says '--@include queue', after lib/fence.lua; see
-- LuaScript). The including script sets Q before calling: Q.lock, Q.fence, Q.queue (keys), Q.retention (fence counter
-- retention in ms, '0' when fencing is off), Q.publish ('publish' or 'spublish'), Q.counts ('1' when a publish's
-- receiver count proves the waiter's client listens).
local Q = {}
-- Publishes with Q.publish; the command is named literally, as some proxies refuse a command name a script computes.
local function announce(channel, message)
    if Q.publish == 'spublish' then
        return redis.call('spublish', channel, message)
    end
    return redis.call('publish', channel, message)
end
-- Pops waiters (entries 'owner|offerMs|deadlineMs|channel') until one is live and offers it the lock: the lock key
-- gets the hold 'owner|token' for the offer time only, a fencing token is minted, and only its client is told, on its
-- wake channel, with 'owner|token|server time in us'. The waiter confirms the offer with a renewal to its lease; an
-- offer nobody confirms (the waiter died, froze or is cut off) lapses by itself and the lock passes to the next live
-- waiter (release.lua 'pass'). A waiter whose deadline passed or whose client hears nothing is skipped at once. Stops
-- without offering at the entry of 'self' (the caller's own, when it is an acquire). 'popped' is an entry the caller
-- popped already (or nil), looked at first. Returns the new owner, or '' when nobody live is queued, and sets Q.offer
-- to the offer time; may leave the lock key set for a skipped waiter (then Q.stale is true), so the caller deletes or
-- overwrites it then.
local function hand_over(self, popped)
    while true do
        local entry = popped or redis.call('lpop', Q.queue)
        popped = nil
        if not entry then
            return ''
        end
        local owner, offer, deadline, channel = string.match(entry, '^(.-)|(%d+)|(%d+)|(.*)$')
        local now_ms, now_us = clock()
        if owner and owner == self then
            return self
        end
        if owner and tonumber(deadline) > now_ms then
            local token = mint(Q.fence, Q.retention)
            redis.call('set', Q.lock, hold_of(owner, token), 'px', offer)
            Q.stale = true
            Q.offer = tonumber(offer)
            local heard = announce(channel, owner .. '|' .. token .. '|' .. string.format('%.0f', now_us))
            if heard > 0 or Q.counts == '0' then
                return owner
            end
        end
    end
end
