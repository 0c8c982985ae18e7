-- Release a single-key lock (write lock, RedLock node) held by the caller and wake every waiter of the name.
-- KEYS[1] lock key
-- ARGV[1] owner token
-- ARGV[2] unlock channel (the message '*' wakes every waiter)
-- Returns 1 when the caller's key was deleted, 0 when the key is missing or owned by someone else (left untouched).
if redis.call('get', KEYS[1]) == ARGV[1] then
    redis.call('del', KEYS[1])
    redis.call('publish', ARGV[2], '*')
    return 1
end
return 0
