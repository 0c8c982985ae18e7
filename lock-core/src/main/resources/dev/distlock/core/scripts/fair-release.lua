-- Release a fair lock held by the caller and wake only the head of the queue.
-- KEYS[1] lock key
-- KEYS[2] queue key
-- ARGV[1] owner token
-- ARGV[2] unlock channel
-- Returns {1, head owner token or ''} when the caller's key was deleted, {0, ''} when it was not the caller's.
if redis.call('get', KEYS[1]) == ARGV[1] then
    redis.call('del', KEYS[1])
    local head = redis.call('lindex', KEYS[2], 0)
    if head then
        redis.call('publish', ARGV[2], head)
        return {1, head}
    end
    return {1, ''}
end
return {0, ''}
