-- Shared by the scripts that hand a lock over (spliced in where a script says '--@include offer', after lib/fence.lua
-- and lib/hold.lua; see LuaScript). Functions of plain arguments, no shared state: unlock.lua offers the lock to
-- the first waiter with it before it defines anything else, as each definition costs Redis CPU on every call.
-- Publishes with 'command' ('publish' or 'spublish'), named literally, as some proxies refuse a command name a script
-- computes. Returns the number of receivers.
local function publish_with(command, channel, message)
    if command == 'spublish' then
        return redis.call('spublish', channel, message)
    end
    return redis.call('publish', channel, message)
end
-- Offers the lock to the waiter of one queue entry 'owner|offerMs|deadlineMs|channel' if it is live: the lock key gets
-- the hold 'owner|token' for the offer time only, a fencing token is minted, and only its client is told, on its wake
-- channel, with 'owner|token|server time in us' ('publish' names the command: 'publish' or 'spublish'). The waiter
-- confirms the offer with a renewal to its lease; an offer nobody confirms (the waiter died, froze or is cut off)
-- lapses by itself and the lock passes to the next live waiter (release.lua 'pass'). Returns the waiter's owner and the
-- offer time in ms, or nil when the entry is not live: its deadline passed, or its client hears nothing (the publish
-- reaches no subscriber, which proves it only where 'counts' is '1'); the lock key may then hold that waiter's offer,
-- for the caller to overwrite or delete.
local function offer(lock, fence, retention, publish, counts, entry)
    local owner, offer_ms, deadline, channel = string.match(entry, '^(.-)|(%d+)|(%d+)|(.*)$')
    local now_ms, now_us = clock()
    if not owner or tonumber(deadline) <= now_ms then
        return nil
    end
    local hold = hold_of(owner, mint(fence, retention))
    redis.call('set', lock, hold, 'px', offer_ms)
    if publish_with(publish, channel, hold .. '|' .. string.format('%.0f', now_us)) > 0 or counts == '0' then
        return owner, tonumber(offer_ms)
    end
    return nil
end
