-- Shared by acquire.lua and write-acquire.lua (spliced in after lib/enqueue.lua and lib/queue.lua). Reads its inputs
-- from Q, which the including script sets from its KEYS and ARGV: besides lib/queue.lua's fields, Q.owner (the
-- caller's owner token), Q.lease (its lease in ms), Q.wait (how long it will wait in ms, '0' for a single attempt),
-- Q.wake (its wake channel), Q.entry (its queue entry from an earlier reply, or '') and Q.offer_ttl (how long an offer
-- to it lasts unless it confirms it, in ms, capped at its lease by the client, with lib/enqueue.lua's '-');
-- acquire.lua also sets Q.taken_holds (the lock key may hold a hold take.lua wrote).
-- Whether a stored hold (the lock key's value) is the caller's.
local function is_callers(value)
    return value ~= nil and value ~= false and string.sub(value, 1, #Q.owner + 1) == Q.owner .. '|'
end
-- The caller holds the lock already: handed over while the announcement was lost (an offer), or a replayed attempt.
-- This check confirms it: the key gets the caller's full lease, counted from this check; the reply has the hold's own
-- token ('-' or '' when it is left to the holder's request).
local function granted_earlier(value)
    local _, token = split_hold(value)
    redis.call('pexpire', Q.lock, Q.lease)
    return {1, token, tonumber(Q.lease)}
end
-- The lock is free: it goes to the first live waiter, or to the caller when nobody live is ahead of it (no barging).
-- Returns the caller's grant, or nil and the waiter it was offered to.
local function take_free()
    local next = hand_over(Q.owner)
    if next == '' or next == Q.owner then
        local token = mint(Q.fence, Q.retention)
        redis.call('set', Q.lock, hold_of(Q.owner, token), 'px', Q.lease)
        return {1, token, tonumber(Q.lease)}, nil
    end
    return nil, next
end
-- Refused: a single attempt only reports; a check reports the caller's place and never queues (if the entry is gone,
-- skipped, the caller queues again with a fresh attempt, which it sends only while still waiting, so a late check can
-- never leave an entry behind for a finished acquisition); a fresh attempt queues the caller. 'holder' is the stored
-- hold in the way ('' when readers hold the lock); the reply names its owner.
local function refuse(pttl, holder)
    local holder_owner = ''
    if holder ~= '' then
        holder_owner = split_hold(holder)
    end
    if Q.wait == '0' then
        return {0, pttl, '', -1, holder_owner}
    end
    if Q.taken_holds and string.sub(holder, -1) == '|' then
        -- A hold take.lua (or the reentrant lock's plain SET NX) wrote, token unminted: its owner releases it with a
        -- compare-and-delete of exactly 'owner|' that looks at no queue (unlock-taken.lua). Minting its token now
        -- changes that value, so the compare misses and the release goes through unlock.lua, which hands over. A
        -- waiter queueing behind it does this, and a queued waiter's check too: such a hold was then taken while the
        -- lock was free with waiters queued (the reentrant lock's plain take, after a holder's lease ran out).
        redis.call('set', Q.lock, holder .. mint(Q.fence, Q.retention), 'keepttl')
    end
    if Q.entry ~= '' then
        local position = redis.call('lpos', Q.queue, Q.entry)
        if position then
            return {0, pttl, Q.entry, position, holder_owner}
        end
        return {0, pttl, '', -1, holder_owner}
    end
    local entry, position = enqueue(Q.queue, Q.owner, Q.offer_ttl, tonumber(Q.wait), Q.wake)
    return {0, pttl, entry, position, holder_owner}
end
