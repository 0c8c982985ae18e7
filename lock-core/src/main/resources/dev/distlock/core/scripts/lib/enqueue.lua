-- Shared by the scripts that queue waiters (spliced in where a script says '--@include enqueue', after lib/fence.lua;
-- see LuaScript). One function of plain arguments, no shared state: acquire.lua defines it before its paths that run
-- on every call, where each definition and table costs Redis CPU.
-- Appends a waiter's entry 'owner|offerMs|deadlineMs|channel' to the queue, its deadline on the server's clock, and
-- keeps the queue until the last waiter's deadline has passed (it disappears by itself after that). 'offer_ms' is how
-- long an offer to the waiter lasts unless it confirms it, as the client capped it at its lease. Returns the entry,
-- its position (0: first in line) and the server time in microseconds, as a string.
local function enqueue(queue, owner, offer_ms, wait, wake)
    local now_ms, now_us = clock()
    local entry = owner .. '|' .. offer_ms .. '|' .. string.format('%.0f', now_ms + wait) .. '|' .. wake
    local length = redis.call('rpush', queue, entry)
    if length == 1 then
        redis.call('pexpire', queue, wait + 1000)
    else
        redis.call('pexpire', queue, wait + 1000, 'gt')
    end
    return entry, length - 1, string.format('%.0f', now_us)
end
