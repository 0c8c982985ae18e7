-- Reads an item's stock for a lock holder and records the holder's fencing token as the newest seen.
-- Recording it on the read (not only on the write) closes the gap where a newer holder has read but not yet
-- written when a paused older holder wakes up: the older holder's write is refused either way.
-- KEYS[1] item hash (fields: stock, initial, lastToken, lastWriter, staleRejected)
-- ARGV[1] fencing token (decimal integer string)
-- ARGV[2] the writer: one id per lock holder (several holders can never share a token, but the check does not
--         rely on that: an equal token from another writer is refused too)
-- Returns {1, stock}                when accepted
--         {-1, 0}                   when the item does not exist
--         {-2, newest token seen}   when the token is older than the newest seen, or equal to it but presented by
--                                   another writer (counted in staleRejected)
if redis.call('exists', KEYS[1]) == 0 then
    return {-1, 0}
end
local newest = redis.call('hget', KEYS[1], 'lastToken') or '0'
local writer = redis.call('hget', KEYS[1], 'lastWriter')
-- tokens stay below 2^53, so comparing them as Lua numbers (doubles) is exact
if tonumber(ARGV[1]) < tonumber(newest) or (tonumber(ARGV[1]) == tonumber(newest) and writer and writer ~= ARGV[2]) then
    redis.call('hincrby', KEYS[1], 'staleRejected', 1)
    return {-2, tonumber(newest)}
end
redis.call('hset', KEYS[1], 'lastToken', ARGV[1], 'lastWriter', ARGV[2])
return {1, tonumber(redis.call('hget', KEYS[1], 'stock'))}
