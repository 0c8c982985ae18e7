-- Mint the fencing token of a hold granted without one (by take.lua, the uncontended first attempt, or handed over by
-- lib/offer.lua to a waiter that left it to its request), at the holder's request.
-- Owner-checked: only the current holder gets a token, so tokens stay ordered like the holds themselves (a later
-- holder mints after this hold ended), and the clock floor of lib/fence.lua applies as for every other mint. The token
-- is written into the hold ('owner|token', expiry kept), so a repeated request, a reentry and an inspection see it.
-- KEYS[1] lock key (the hold 'owner|', 'owner|-' or 'owner|token')
-- KEYS[2] fence key
-- ARGV[1] owner: owner token
-- ARGV[2] fenceRetentionMillis: fence counter retention in ms (> 0: fencing is on when a token is asked for)
-- Returns {1, token}, or {0, ''} when the caller does not hold the lock.
--@include fence
local hold = redis.call('get', KEYS[1])
if not hold or string.sub(hold, 1, #ARGV[1] + 1) ~= ARGV[1] .. '|' then
    return {0, ''}
end
local token = string.sub(hold, #ARGV[1] + 2)
if token ~= '' and token ~= '-' then
    return {1, token}
end
token = mint(KEYS[2], ARGV[2])
redis.call('set', KEYS[1], ARGV[1] .. '|' .. token, 'xx', 'keepttl')
return {1, token}
