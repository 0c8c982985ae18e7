-- Delete a lock whoever holds it and wake waiters. Operator tool, not part of the normal protocol.
-- KEYS[1] lock key
-- ARGV[1] unlock channel
-- Returns 1 when a key was deleted, 0 when there was none.
if redis.call('del', KEYS[1]) == 1 then
    redis.call('publish', ARGV[1], '*')
    return 1
end
return 0
