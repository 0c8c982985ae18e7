-- Delete a read/write lock whoever holds it (writer and all readers) and wake waiters. Operator tool.
-- KEYS[1] write key
-- KEYS[2] readers key
-- ARGV[1] unlock channel
-- Returns the number of keys deleted.
local deleted = redis.call('del', KEYS[1], KEYS[2])
if deleted > 0 then
    redis.call('publish', ARGV[1], '*')
end
return deleted
