-- Return one permit of a semaphore and wake its waiters (the first live ones take the freed permits in order).
-- KEYS[1] permits key (sorted set: permit 'owner|token' -> its lease's expiry in server ms)
-- ARGV[1] permit: the permit 'owner|token'
-- ARGV[2] broadcastChannel: the semaphore's broadcast channel
-- ARGV[3] publish: 'publish' or 'spublish'
-- Returns 1 when the caller's permit was removed, 0 when it was gone already (expired, or removed by an operator).
if redis.call('zrem', KEYS[1], ARGV[1]) == 0 then
    return 0
end
if ARGV[3] == 'spublish' then
    redis.call('spublish', ARGV[2], '*')
else
    redis.call('publish', ARGV[2], '*')
end
return 1
