-- Leave the queue of a fair lock (the waiter gave up); if it was the head of a free lock, wake the next head.
-- KEYS[1] lock key
-- KEYS[2] queue key
-- KEYS[3] waiters key
-- ARGV[1] owner token
-- ARGV[2] unlock channel
-- Returns 1 when the caller was queued, 0 otherwise.
local was_head = redis.call('lindex', KEYS[2], 0) == ARGV[1]
local removed = redis.call('lrem', KEYS[2], 0, ARGV[1])
redis.call('zrem', KEYS[3], ARGV[1])
if was_head and redis.call('exists', KEYS[1]) == 0 then
    local head = redis.call('lindex', KEYS[2], 0)
    if head then
        redis.call('publish', ARGV[2], head)
    end
end
if removed > 0 then
    return 1
end
return 0
