-- Writes a reservation (new stock + one entry in the sales list) only if the writer's fencing token is not older
-- than the newest token this item has seen. The same token may write again (one lease, several writes), but only from
-- the writer that presented it first.
-- KEYS[1] item hash (fields: stock, initial, lastToken, lastWriter, staleRejected)
-- KEYS[2] sales list of the item (entries "token:buyer", in commit order)
-- ARGV[1] fencing token (decimal integer string)
-- ARGV[2] new stock
-- ARGV[3] buyer
-- ARGV[4] the writer: one id per lock holder
-- Returns {1, new stock}            when written
--         {-1, 0}                   when the item does not exist
--         {-2, newest token seen}   when the token is older than the newest seen, or equal to it but presented by
--                                   another writer (counted in staleRejected)
if redis.call('exists', KEYS[1]) == 0 then
    return {-1, 0}
end
local newest = redis.call('hget', KEYS[1], 'lastToken') or '0'
local writer = redis.call('hget', KEYS[1], 'lastWriter')
if tonumber(ARGV[1]) < tonumber(newest) or (tonumber(ARGV[1]) == tonumber(newest) and writer and writer ~= ARGV[4]) then
    redis.call('hincrby', KEYS[1], 'staleRejected', 1)
    return {-2, tonumber(newest)}
end
redis.call('hset', KEYS[1], 'stock', ARGV[2], 'lastToken', ARGV[1], 'lastWriter', ARGV[4])
redis.call('rpush', KEYS[2], ARGV[1] .. ':' .. ARGV[3])
return {1, tonumber(ARGV[2])}
