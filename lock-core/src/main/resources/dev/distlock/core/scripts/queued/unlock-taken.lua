-- Release a hold that take.lua wrote and whose fencing token nobody minted since: a compare-and-delete of exactly the
-- value 'owner|', the uncontended release (one key, one argument, no queue looked at). Waiters cannot be missed: the
-- first one to queue behind such a hold mints the holder's token into it (lib/grant-or-queue.lua), so once anyone
-- queues the value is no longer 'owner|' and this script touches nothing; the caller then releases with unlock.lua,
-- which hands over.
-- KEYS[1] lock key (string: the hold 'owner|' or 'owner|token')
-- ARGV[1] owner: owner token
-- Returns 1 (deleted), 2 (the caller's hold, but no longer as take.lua wrote it: nothing touched, release it with
-- unlock.lua) or 0 (not the caller's hold: nothing touched).
local holder = redis.call('get', KEYS[1])
if holder == ARGV[1] .. '|' then
    redis.call('del', KEYS[1])
    return 1
end
if holder and string.sub(holder, 1, #ARGV[1] + 1) == ARGV[1] .. '|' then
    return 2
end
return 0
