-- Delete a fair lock whoever holds it and wake the head of the queue. Operator tool.
-- KEYS[1] lock key
-- KEYS[2] queue key
-- ARGV[1] unlock channel
-- Returns 1 when a key was deleted, 0 when there was none.
if redis.call('del', KEYS[1]) == 1 then
    local head = redis.call('lindex', KEYS[2], 0)
    if head then
        redis.call('publish', ARGV[1], head)
    end
    return 1
end
return 0
