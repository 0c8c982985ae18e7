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
-- The number of this server's subscribers of a wake channel ('publish' names the command the channel is published
-- with: 'publish', or 'spublish' for a shard channel).
local function listeners(command, channel)
    if command == 'spublish' then
        return redis.call('pubsub', 'shardnumsub', channel)[2]
    end
    return redis.call('pubsub', 'numsub', channel)[2]
end
-- Offers the lock to the waiter of one queue entry 'owner|offerMs|deadlineMs|channel' if it is live: the lock key gets
-- the hold 'owner|token' for the offer time only, a fencing token is minted, and only its client is told, on its wake
-- channel, with 'owner|token|server time in us' ('publish' names the command: 'publish' or 'spublish'). The waiter
-- confirms the offer with a renewal to its lease; an offer nobody confirms (the waiter died, froze or is cut off)
-- lapses by itself and the lock passes to the next live waiter (release.lua 'pass'). Returns the waiter's owner and the
-- offer time in ms, or nil, with nothing written or announced, when the entry is not live: its deadline passed, or its
-- client does not listen here (known only where 'counts' is '1').
-- Who listens is asked before anything is announced, never read from the announcement's receiver count: a publish
-- reaches the subscribers of this server's replicas too (it is replicated) but counts only this server's, so a waiter
-- whose client still listens on a demoted master after a failover would hear an offer this script then withdrew, and
-- run beside the next holder.
local function offer(lock, fence, retention, publish, counts, entry)
    local owner, offer_ms, deadline, channel = string.match(entry, '^(.-)|(%d+)|(%d+)|(.*)$')
    local now_ms, now_us = clock()
    if not owner or tonumber(deadline) <= now_ms or (counts == '1' and listeners(publish, channel) == 0) then
        return nil
    end
    local hold = hold_of(owner, mint(fence, retention))
    redis.call('set', lock, hold, 'px', offer_ms)
    publish_with(publish, channel, hold .. '|' .. string.format('%.0f', now_us))
    return owner, tonumber(offer_ms)
end
