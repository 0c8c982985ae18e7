-- Shared by the scripts that queue waiters (spliced in where a script says '--@include enqueue'; see LuaScript). One
-- function of plain arguments, no shared state: acquire.lua defines it before its paths that run on every call, where
-- each definition and table costs Redis CPU.
-- Appends a waiter's entry 'owner|offer|channel' to the queue and keeps the queue until the waiter's wait is over
-- (with a second to spare; it disappears by itself after the last waiter's). 'offer' is how long an offer to the
-- waiter lasts unless it confirms it, in ms, as the client capped it at its lease, followed by '-' when the waiter
-- leaves its fencing token to its holder's request (lib/offer.lua). An entry has no deadline of its own: a waiter that
-- gives up removes it (release.lua 'leave'), and one that cannot is skipped by lib/offer.lua when its client no longer
-- listens, or released by its client when the offer reaches a client that does. Returns the entry and its position
-- (0: first in line).
local function enqueue(queue, owner, offer, wait, wake)
    local entry = owner .. '|' .. offer .. '|' .. wake
    local length = redis.call('rpush', queue, entry)
    if length == 1 then
        redis.call('pexpire', queue, wait + 1000)
    else
        redis.call('pexpire', queue, wait + 1000, 'gt')
    end
    return entry, length - 1
end
