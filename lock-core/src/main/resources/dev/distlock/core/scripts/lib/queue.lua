-- Shared by the queued-lock scripts (spliced in where a script says '--@include queue', after lib/fence.lua and
-- lib/offer.lua; see LuaScript). The including script sets Q before calling: Q.lock, Q.fence, Q.queue (keys),
-- Q.retention (fence counter retention in ms, '0' when fencing is off), Q.publish ('publish' or 'spublish'), Q.counts
-- ('1' when the server's subscriber count of a wake channel proves its client listens).
local Q = {}
-- Publishes with Q.publish (lib/offer.lua's publish_with).
local function announce(channel, message)
    return publish_with(Q.publish, channel, message)
end
-- Pops waiters (entries 'owner|offer|channel') until one is live and offers it the lock (lib/offer.lua): a waiter
-- whose client does not listen is skipped at once, untold. Stops without offering at
-- the entry of 'self' (the caller's own, when it is an acquire). 'popped' is an entry the caller popped already (or
-- nil), looked at first. Returns the new owner, or '' when nobody live is queued, and sets Q.offer to the offer time.
-- Writes nothing for a skipped waiter: the lock key is as the caller left it, for it to delete or overwrite when nobody
-- is live.
local function hand_over(self, popped)
    while true do
        local entry = popped or redis.call('lpop', Q.queue)
        popped = nil
        if not entry then
            return ''
        end
        if self and string.sub(entry, 1, #self + 1) == self .. '|' then
            return self
        end
        local owner, offer_ms = offer(Q.lock, Q.fence, Q.retention, Q.publish, Q.counts, entry)
        if owner then
            Q.offer = offer_ms
            return owner
        end
    end
end
