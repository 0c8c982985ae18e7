-- Acquire a queued lock (reentrant and fair locks, multi-lock members) for a new owner, or check on a queued waiter.
-- Waiters queue in arrival order and a release offers the lock straight to the first live one (release.lua), so an
-- acquire never takes the lock ahead of a live waiter (no barging); a free lock with waiters (the holder's lease or an
-- offer ran out) is offered here first.
-- KEYS[1] lock key      (string: the hold 'owner|fencing token', with PX expiry)
-- KEYS[2] fence key     (string: last fencing token issued for this lock name)
-- KEYS[3] queue key     (list of waiter entries 'owner|offer|channel', oldest first: lib/enqueue.lua)
-- KEYS[4] tombstone key (exists when the client abandoned this owner's acquisition: never grant it, nor queue it
--         unless the lock is held by another owner, see below)
-- KEYS[5] (optional) the tombstone key of the owner of an unminted hold that this attempt was told of ({3, owner})
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
--         lease), followed by '-' when the caller leaves the token of a hold handed over to it to its request
-- Returns {1, token, remaining lease in ms} when the caller holds the lock (granted now, or handed over earlier and
-- confirmed by this call; token '-' for a hold handed over with its token left to the holder's request), or {0,
-- holder pttl or -1 (-1 also for a fresh attempt queued third or further back), queue entry or '', position in the
-- queue or -1, holder owner or ''}, or {3, owner} when another owner's unminted hold is in the way and KEYS[5] is not
-- that owner's tombstone key: ask again with it (nothing was written but, at most, the fence counter).
--@include fence
--@include hold
--@include enqueue
-- Held by another owner with its token minted, the common case of contention. A fresh attempt that waits is queued
-- behind it here, with the lock key its only read, before anything below is defined (each definition, and the table
-- Q, costs Redis CPU on every call). It skips the tombstone: a tombstone keeps an abandoned owner from being granted
-- the lock, and an abandoned owner's entry (a replay of its attempt that ran after the abandon) is never granted
-- either: a release finds its client not listening and skips it, or tells a client that no longer waits for it, which
-- releases it at once, owner-checked (HandoffRooms). A check, the caller's own hold, a free lock and a hold take.lua
-- (or the reentrant lock's plain SET NX) wrote go on below.
local function queued_behind(holder)
    return holder and string.sub(holder, -1) ~= '|' and string.sub(holder, 1, #ARGV[1] + 1) ~= ARGV[1] .. '|'
end
local holder
if ARGV[8] == '' and ARGV[4] ~= '0' then
    holder = redis.call('get', KEYS[1])
    if queued_behind(holder) then
        local entry, position = enqueue(KEYS[3], ARGV[1], ARGV[9], tonumber(ARGV[4]), ARGV[5])
        -- The holder's remaining lease tells a waiter when a check could find the lock free of a dead holder: only
        -- the first two in line are told (one of them takes over unless both died with the holder); a waiter further
        -- back checks at its slower cadence and learns the lease of the holder of that time from its check.
        local pttl = -1
        if position < 2 then
            pttl = redis.call('pttl', KEYS[1])
        end
        return {0, pttl, entry, position, (split_hold(holder))}
    end
end
-- One EXISTS tells both: the tombstone counts twice, the queue once.
local found = redis.call('exists', KEYS[4], KEYS[3], KEYS[4])
if found >= 2 then
    return {0, -1, '', -1, ''}
end
if found == 0 and not holder then
    -- Nobody queued, the uncontended case: taken here if free, before the queue functions below are defined
    -- (defining them costs Redis about as much CPU as this path's commands). A refused caller wastes a token.
    local token = mint(KEYS[2], ARGV[3])
    holder = redis.call('set', KEYS[1], hold_of(ARGV[1], token), 'nx', 'px', ARGV[2], 'get')
    if not holder then
        return {1, token, tonumber(ARGV[2])}
    end
elseif holder == nil then
    holder = redis.call('get', KEYS[1])
end
-- Another owner's unminted hold 'owner|' may be a ghost: the reentrant lock's plain SET NX (QueuedProtocol) replayed
-- after its client abandoned that attempt, so nobody holds it. Its owner's tombstone tells, a key only the client can
-- declare: the caller is told the owner ({3, owner}) and asks again with that tombstone as KEYS[5]. A ghost is then
-- removed and the lock is free; a live holder's hold goes on below (a waiter queueing behind it mints its token).
if holder and string.sub(holder, -1) == '|' and string.sub(holder, 1, #ARGV[1] + 1) ~= ARGV[1] .. '|' then
    local suspect = string.sub(holder, 1, -2)
    if KEYS[5] ~= string.sub(KEYS[4], 1, #KEYS[4] - #ARGV[1]) .. suspect then
        return {3, suspect}
    end
    if redis.call('exists', KEYS[5]) == 1 then
        redis.call('del', KEYS[1])
        holder = nil
    end
end
-- A single attempt refused the same way, before anything below is defined.
if ARGV[4] == '0' and ARGV[8] == '' and queued_behind(holder) then
    return {0, redis.call('pttl', KEYS[1]), '', -1, (split_hold(holder))}
end
--@include offer
--@include queue
--@include grant-or-queue
Q.lock, Q.fence, Q.queue = KEYS[1], KEYS[2], KEYS[3]
Q.retention, Q.publish, Q.counts = ARGV[3], ARGV[6], ARGV[7]
Q.owner, Q.lease, Q.wait, Q.wake, Q.entry, Q.offer_ttl = ARGV[1], ARGV[2], ARGV[4], ARGV[5], ARGV[8], ARGV[9]
Q.taken_holds = true

if is_callers(holder) then
    return granted_earlier(holder)
end
if not holder then
    local granted, next = take_free()
    if granted then
        return granted
    end
    return refuse(redis.call('pttl', KEYS[1]), redis.call('get', KEYS[1]) or next)
end
return refuse(redis.call('pttl', KEYS[1]), holder)
