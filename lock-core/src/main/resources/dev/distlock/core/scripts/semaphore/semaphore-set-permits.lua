-- Change how many permits a semaphore has. A lower count takes no permit away: holders keep theirs, and new ones are
-- granted once fewer than the new count are held. A higher count wakes the waiters.
-- KEYS[1] count key (string: how many permits the semaphore has)
-- ARGV[1] permits: the new count
-- ARGV[2] broadcastChannel: the semaphore's broadcast channel
-- ARGV[3] publish: 'publish' or 'spublish'
-- Returns the previous count, or 0 when none was stored.
local previous = tonumber(redis.call('get', KEYS[1]) or '0')
redis.call('set', KEYS[1], ARGV[1])
if tonumber(ARGV[1]) > previous then
    if ARGV[3] == 'spublish' then
        redis.call('spublish', ARGV[2], '*')
    else
        redis.call('publish', ARGV[2], '*')
    end
end
return previous
