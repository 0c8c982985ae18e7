-- RedLock: abandon for good an attempt (or a whole acquisition) whose request this node may still execute late:
-- leave a tombstone so that it is never granted here, delete a grant it got, and leave the waiters set.
-- KEYS[1] tombstone key (set with PX ARGV[2])
-- KEYS[2] lock key
-- KEYS[3] waiters key
-- ARGV[1] owner: an attempt owner token, or an acquisition owner token (matches any of its attempts '<owner>/<n>')
-- ARGV[2] tombstoneMillis: tombstone lifetime in ms
-- ARGV[3] acquisition: acquisition owner token (left the waiters set)
-- Returns 1 when a grant of the owner was deleted, 0 otherwise. Publishes nothing: a grant of an attempt that was
-- never handed out is not a release anyone waits for (the waiters' back-off covers it).
redis.call('set', KEYS[1], '1', 'px', ARGV[2])
redis.call('zrem', KEYS[3], ARGV[3])
local holder = redis.call('get', KEYS[2])
if holder and (holder == ARGV[1] or string.sub(holder, 1, #ARGV[1] + 1) == ARGV[1] .. '/') then
    redis.call('del', KEYS[2])
    return 1
end
return 0
