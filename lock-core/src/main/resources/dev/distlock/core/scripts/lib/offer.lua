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
-- Offers the lock to the waiter of one queue entry 'owner|offer|channel' (lib/enqueue.lua) if its client listens: the
-- lock key gets the waiter's hold for the offer time only, and only its client is told, on its wake channel, with that
-- hold ('publish' names the command: 'publish' or 'spublish'). The hold is 'owner|token' with a fencing token minted
-- now, or 'owner|-' when the entry's offer time ends in '-': the waiter leaves its token to its holder's request
-- (mint.lua), and releases the hold with unlock.lua, so nobody queueing behind it needs to mint it (unlike a hold
-- take.lua wrote, 'owner|'). The waiter confirms the offer with a renewal to its lease; an offer nobody confirms (the
-- waiter died, froze or is cut off) lapses by itself and the lock passes to the next live waiter (release.lua 'pass').
-- Returns the waiter's owner and the offer time in ms, or nil, with nothing written or announced, when its client does
-- not listen here (known only where 'counts' is '1') or the entry is not one.
-- Who listens is asked before anything is announced, never read from the announcement's receiver count: a publish
-- reaches the subscribers of this server's replicas too (it is replicated) but counts only this server's, so a waiter
-- whose client still listens on a demoted master after a failover would hear an offer this script then withdrew, and
-- run beside the next holder.
local function offer(lock, fence, retention, publish, counts, entry)
    local owner, offer_ms, on_request, channel = string.match(entry, '^(.-)|(%d+)(%-?)|(.*)$')
    if not owner or (counts == '1' and listeners(publish, channel) == 0) then
        return nil
    end
    local hold
    if on_request == '' then
        hold = hold_of(owner, mint(fence, retention))
    else
        hold = owner .. '|-'
    end
    redis.call('set', lock, hold, 'px', offer_ms)
    publish_with(publish, channel, hold)
    return owner, tonumber(offer_ms)
end
