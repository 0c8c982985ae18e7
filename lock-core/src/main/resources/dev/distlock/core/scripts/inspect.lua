-- Inspect a lock without changing it: who holds it, for how long, its fencing token and how many wait.
-- KEYS[1] lock key            (string: owner token of the reentrant or fair lock)
-- KEYS[2] fence key           (string: last fencing token issued for this lock name)
-- KEYS[3] queue key           (list: waiters queued for the lock key)
-- KEYS[4] write key           (string: writer owner token of the read/write lock)
-- KEYS[5] readers key         (sorted set: reader owner token -> expiry in server ms)
-- KEYS[6] write queue key     (list: writers queued for the write key)
-- Returns {mode, owner, pttl, fence, queued, readers}:
--   mode    'lock' (lock key held), 'write' (write key held), 'read' (live read holds only), '' (free)
--   owner   the holder's owner token; for 'read' the reader whose hold lasts longest; '' when free
--   pttl    remaining lease of that holder in ms; -1 when free
--   fence   the fence key's value while held, '0' when free or fencing is off
--   queued  waiters: both queues' lengths
--   readers live read holds
local t = redis.call('time')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local queued = redis.call('llen', KEYS[3]) + redis.call('llen', KEYS[6])
local readers = redis.call('zcount', KEYS[5], '(' .. now_ms, '+inf')
local mode, owner, pttl = '', '', -1
local holder = redis.call('get', KEYS[1])
if holder then
    mode, owner, pttl = 'lock', holder, redis.call('pttl', KEYS[1])
else
    holder = redis.call('get', KEYS[4])
    if holder then
        mode, owner, pttl = 'write', holder, redis.call('pttl', KEYS[4])
    elseif readers > 0 then
        local last = redis.call('zrange', KEYS[5], -1, -1, 'withscores')
        mode, owner, pttl = 'read', last[1], tonumber(last[2]) - now_ms
    end
end
local fence = '0'
if mode ~= '' then
    fence = redis.call('get', KEYS[2]) or '0'
end
return {mode, owner, pttl, fence, queued, readers}
