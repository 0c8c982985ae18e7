-- Take a queued lock that is free with nobody queued, for a new owner, in the fewest commands and arguments: the first
-- attempt of a blocking acquisition (it never queues) of the fair lock, and of the reentrant lock when its grants wait
-- for replicas (otherwise the reentrant lock sends a plain SET NX, which looks at no queue: QueuedProtocol). The hold
-- is 'owner|' (see lib/hold.lua): its fencing token is minted when the holder asks for it (mint.lua), which is
-- owner-checked and so ordered with every other holder's, or by the first waiter that queues behind it
-- (lib/grant-or-queue.lua), so that the holder's compare-and-delete of 'owner|' (unlock-taken.lua) misses and its
-- release hands over. Whatever is not that simple is told back for acquire.lua to decide.
-- KEYS[1] lock key      (string: the hold 'owner|token' or 'owner|', with PX expiry)
-- KEYS[2] queue key     (list of waiter entries)
-- KEYS[3] tombstone key (exists when the client abandoned this owner's acquisition: never grant it)
-- ARGV[1] owner: owner token
-- ARGV[2] leaseMillis: lease in ms (> 0)
-- Returns the lease in ms alone when taken (one integer: a table costs Redis more to convert); {1, token or '',
-- lease in ms} when the caller holds it already (a replayed attempt; extended to the lease); {0, holder pttl or -1,
-- '', -1, holder owner or ''} when refused, as acquire.lua's refusal of a single attempt; {2, ''} when the lock
-- is free but waiters queue: acquire.lua must offer it to the first live one; {3, owner} when another owner's
-- unminted hold is in the way: acquire.lua, told that owner's tombstone, decides whether it is a ghost.
local found = redis.call('exists', KEYS[3], KEYS[2], KEYS[3])
if found >= 2 then
    return {0, -1, '', -1, ''}
end
if found == 0 and redis.call('set', KEYS[1], ARGV[1] .. '|', 'nx', 'px', ARGV[2]) then
    return tonumber(ARGV[2])
end
local holder = redis.call('get', KEYS[1])
if not holder then
    return {2, ''}
end
--@include hold
local owner, token = split_hold(holder)
if owner == ARGV[1] then
    redis.call('pexpire', KEYS[1], ARGV[2])
    return {1, token, tonumber(ARGV[2])}
end
if token == '' then
    -- Another owner's unminted hold: a live holder's, or a ghost (see acquire.lua), which only acquire.lua, told the
    -- owner's tombstone, can tell apart.
    return {3, owner}
end
return {0, redis.call('pttl', KEYS[1]), '', -1, owner}
