-- Extend (or only confirm) a lock held by the caller. Never recreates a missing key.
-- KEYS[1] lock key
-- ARGV[1] owner token
-- ARGV[2] new lease in ms, or 0 to confirm ownership without extending
-- Returns 1 when the caller still owns the key (extended if asked), 0 otherwise.
if redis.call('get', KEYS[1]) == ARGV[1] then
    if ARGV[2] ~= '0' then
        redis.call('pexpire', KEYS[1], ARGV[2])
    end
    return 1
end
return 0
