-- Inspect a lock without changing it: who holds it, for how long, its fencing token and how many wait.
-- KEYS[1] lock key            (string: the hold 'owner|token' of the reentrant or fair lock)
-- KEYS[2] fence key           (unused: each hold stores its own token; kept so the KEYS stay as callers pass them)
-- KEYS[3] queue key           (list: waiters queued for the lock key)
-- KEYS[4] write key           (string: the writer's hold 'owner|token' of the read/write lock)
-- KEYS[5] readers key         (sorted set: reader hold 'owner|token' -> expiry in server ms)
-- KEYS[6] write queue key     (list: writers queued for the write key)
-- Returns {mode, owner, pttl, fence, queued, readers}:
--   mode    'lock' (lock key held), 'write' (write key held), 'read' (live read holds only), '' (free)
--   owner   the holder's owner token; for 'read' the reader whose hold lasts longest; '' when free
--   pttl    remaining lease of that holder in ms; -1 when free
--   fence   that holder's own fencing token, '0' when free, fencing is off or the holder has not asked for it yet
--   queued  waiters: both queues' lengths
--   readers live read holds
--@include fence
--@include hold
local now_ms = clock()
local queued = redis.call('llen', KEYS[3]) + redis.call('llen', KEYS[6])
local readers = redis.call('zcount', KEYS[5], '(' .. now_ms, '+inf')
local mode, hold, pttl = '', nil, -1
local holder = redis.call('get', KEYS[1])
if holder then
    mode, hold, pttl = 'lock', holder, redis.call('pttl', KEYS[1])
else
    holder = redis.call('get', KEYS[4])
    if holder then
        mode, hold, pttl = 'write', holder, redis.call('pttl', KEYS[4])
    elseif readers > 0 then
        local last = redis.call('zrange', KEYS[5], -1, -1, 'withscores')
        mode, hold, pttl = 'read', last[1], tonumber(last[2]) - now_ms
    end
end
if not hold then
    return {'', '', -1, '0', queued, readers}
end
local owner, fence = split_hold(hold)
if fence == '' or fence == '-' then
    fence = '0'
end
return {mode, owner, pttl, fence, queued, readers}
