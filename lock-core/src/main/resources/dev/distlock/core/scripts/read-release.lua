-- Release one read hold; when the last reader leaves, wake waiting writers.
-- KEYS[1] readers key
-- ARGV[1] owner token
-- ARGV[2] unlock channel
-- Returns 1 when the caller's hold was removed, 0 when it was gone already.
if redis.call('zrem', KEYS[1], ARGV[1]) == 0 then
    return 0
end
if redis.call('zcard', KEYS[1]) == 0 then
    redis.call('del', KEYS[1])
    redis.call('publish', ARGV[2], '*')
end
return 1
