-- Creates an item or resets it to a fresh stock, emptying its sales list. The newest fencing token seen is kept:
-- a holder still working on the old stock must not be able to write into the new one.
-- KEYS[1] item hash (fields: stock, initial, lastToken, lastWriter, staleRejected)
-- KEYS[2] sales list of the item
-- ARGV[1] stock (>= 0)
-- Returns 1
redis.call('hset', KEYS[1], 'stock', ARGV[1], 'initial', ARGV[1], 'staleRejected', 0)
redis.call('hsetnx', KEYS[1], 'lastToken', 0)
redis.call('del', KEYS[2])
return 1
