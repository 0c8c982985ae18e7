-- A writer gave up waiting: stop blocking new readers, and wake them.
-- KEYS[1] waiting writers key
-- ARGV[1] owner token
-- ARGV[2] unlock channel
-- Returns 1 when the writer was waiting, 0 otherwise.
if redis.call('zrem', KEYS[1], ARGV[1]) == 1 then
    redis.call('publish', ARGV[2], '*')
    return 1
end
return 0
