-- Acquire the write hold of a read/write lock, or check on a queued writer: exclusive of readers and other writers.
-- Writers queue in arrival order and are offered the lock by the release of the writer or of the last reader
-- (write-release.lua, read-release.lua); queued writers keep new readers out (writer preference, see read-acquire.lua).
-- KEYS[1] write key     (string: the hold 'owner|fencing token', with PX expiry)
-- KEYS[2] fence key
-- KEYS[3] writer queue  (list of waiter entries 'owner|offer|channel', oldest first: lib/enqueue.lua)
-- KEYS[4] tombstone key (exists when the client abandoned this owner's acquisition: never grant or queue it)
-- KEYS[5] readers key   (sorted set: reader hold 'owner|token' -> expiry in server ms)
-- ARGV[1] owner: owner token
-- ARGV[2] leaseMillis: lease in ms (> 0)
-- ARGV[3] fenceRetentionMillis: fence counter retention in ms, or '0' when fencing is off (token 0, no fence key
--         written)
-- ARGV[4] waitMillis: how long the caller will wait in ms; '0' for a single attempt that never queues
-- ARGV[5] wakeChannel: the caller's wake channel (its client is subscribed there while it waits)
-- ARGV[6] publish: 'publish' or 'spublish': how a handoff is announced
-- ARGV[7] countsListeners: '1' when the server's subscriber count of a wake channel proves its client listens, else '0'
-- ARGV[8] entry: the caller's queue entry from an earlier reply (a check: never queues), or '' when it is not queued
-- ARGV[9] offer: how long an offer to the caller lasts unless it confirms it, in ms (> 0; the client caps it at the
--         lease); a writer's hold is always handed over with its token minted, so never followed by '-'
-- Returns as acquire.lua; while readers hold it, the holder pttl is the time until the last reader's lease ends.
--@include fence
--@include hold
--@include enqueue
--@include offer
--@include queue
--@include grant-or-queue
Q.lock, Q.fence, Q.queue = KEYS[1], KEYS[2], KEYS[3]
Q.retention, Q.publish, Q.counts = ARGV[3], ARGV[6], ARGV[7]
Q.owner, Q.lease, Q.wait, Q.wake, Q.entry, Q.offer_ttl = ARGV[1], ARGV[2], ARGV[4], ARGV[5], ARGV[8], ARGV[9]

if redis.call('exists', KEYS[4]) == 1 then
    return {0, -1, '', -1, ''}
end
local now_ms = clock()
redis.call('zremrangebyscore', KEYS[5], '-inf', now_ms)
local holder = redis.call('get', KEYS[1])
if is_callers(holder) then
    return granted_earlier(holder)
end
local last_reader = redis.call('zrange', KEYS[5], -1, -1, 'withscores')[2]
if not holder and not last_reader then
    local granted = take_free()
    if granted then
        return granted
    end
    holder = redis.call('get', KEYS[1])
end
if holder then
    return refuse(redis.call('pttl', KEYS[1]), holder)
end
if not last_reader then
    return refuse(-1, '')
end
-- Readers hold it: the caller may sleep until the last reader's lease ends.
return refuse(tonumber(last_reader) - now_ms, '')
