-- Acquire a read hold: shared with other readers, refused while a writer holds or a live writer is queued (writer
-- preference: a steady stream of readers cannot starve writers).
-- KEYS[1] write key          (string: the writer's hold 'owner|token', with PX expiry)
-- KEYS[2] readers key        (sorted set: reader hold 'owner|token' -> expiry in server ms; each with its own lease)
-- KEYS[3] writer queue       (list of waiter entries 'owner|offer|channel', oldest first)
-- KEYS[4] fence key
-- KEYS[5] tombstone key (exists when the client abandoned this owner's acquisition: never grant it)
-- ARGV[1] owner: owner token
-- ARGV[2] leaseMillis: lease in ms
-- ARGV[3] fenceRetentionMillis: fence counter retention in ms, or 0 when fencing is off
-- ARGV[4] writeOwner: owner token of the write hold of the same thread ('' if none): a writer may take read holds
--         (downgrade)
-- ARGV[5] publish: 'publish' or 'spublish'
-- ARGV[6] countsListeners: '1' when this server's subscriber count proves the writer's client listens, '0' when it
--         cannot
-- Returns {1, token} when granted (the read hold is then 'owner|token'), {0, pttl} when refused (pttl -1 when a
-- writer is queued).
--@include fence
--@include hold
--@include offer

if redis.call('exists', KEYS[5]) == 1 then
    return {0, -1}
end
local now_ms = clock()
redis.call('zremrangebyscore', KEYS[2], '-inf', now_ms)
local writer = redis.call('get', KEYS[1])
local downgrade = writer and ARGV[4] ~= '' and split_hold(writer) == ARGV[4]
if writer and not downgrade then
    return {0, redis.call('pttl', KEYS[1])}
end
if not downgrade then
    -- A queued writer keeps readers out while it is live: its client still listens (a subscriber of its wake channel
    -- here, lib/offer.lua's listeners). Dead writers at the head are dropped.
    while true do
        local entry = redis.call('lindex', KEYS[3], 0)
        if not entry then
            break
        end
        local channel = string.match(entry, '^.-|%d+%-?|(.*)$')
        if channel and (ARGV[6] == '0' or listeners(ARGV[5], channel) > 0) then
            return {0, -1}
        end
        redis.call('lpop', KEYS[3])
    end
end
local token = mint(KEYS[4], ARGV[3])
redis.call('zadd', KEYS[2], now_ms + tonumber(ARGV[2]), hold_of(ARGV[1], token))
local last_expiry = redis.call('zrange', KEYS[2], -1, -1, 'withscores')[2]
redis.call('pexpire', KEYS[2], tonumber(last_expiry) - now_ms)
return {1, token}
