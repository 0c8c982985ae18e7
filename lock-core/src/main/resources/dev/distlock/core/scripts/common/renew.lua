-- Extend (or only confirm) a lock held by the caller; also confirms a handoff offer (extends it to the lease). Never
-- recreates a missing key.
-- KEYS[1] lock key (the hold 'owner|token' of a queued or write lock, or a RedLock attempt owner)
-- ARGV[1] owner: owner token
-- ARGV[2] leaseMillis: new lease in ms, or 0 to confirm ownership without extending
-- Returns 1 when the caller still owns the key (extended if asked), 0 otherwise.
local holder = redis.call('get', KEYS[1])
if holder and (holder == ARGV[1] or string.sub(holder, 1, #ARGV[1] + 1) == ARGV[1] .. '|') then
    if ARGV[2] ~= '0' then
        redis.call('pexpire', KEYS[1], ARGV[2])
    end
    return 1
end
return 0
