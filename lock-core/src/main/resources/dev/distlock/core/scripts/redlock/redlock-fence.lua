-- RedLock, round 2 on one node: after a majority granted the lock, write the fencing token chosen from the round-1
-- fences, unless this node already stores a token at least as large; and take the acquisition off the waiters set.
-- KEYS[1] fence key   (string: highest fencing token written here)
-- KEYS[2] waiters key (sorted set of waiting acquisition owners)
-- ARGV[1] token: fencing token, or '0' to only leave the waiters set
-- ARGV[2] fenceRetentionMillis: fence retention in ms
-- ARGV[3] acquisition: acquisition owner token
-- Returns {1, token} when the token was written (the stored one was smaller), {0, stored} when the node already had
-- a token >= ARGV[1] (nothing written), {1, 0} when ARGV[1] is '0'.
redis.call('zrem', KEYS[2], ARGV[3])
if ARGV[1] == '0' then
    return {1, 0}
end
local stored = redis.call('get', KEYS[1])
if stored and tonumber(stored) >= tonumber(ARGV[1]) then
    return {0, stored}
end
redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2])
return {1, ARGV[1]}
