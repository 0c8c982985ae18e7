-- Shared by release.lua and write-release.lua (spliced in after lib/queue.lua). Reads its inputs from Q, which the
-- including script sets from its KEYS and ARGV: besides lib/queue.lua's fields, Q.tombstone (the tombstone key, for
-- 'abandon'), Q.mode ('release', 'leave', 'abandon', 'force' or 'pass'), Q.owner (the caller's owner token) and
-- Q.mode_arg ('leave': the caller's queue entry; 'abandon': the tombstone lifetime in ms).
-- Applies the mode to the queue ('abandon': tombstone and every entry of the owner; 'leave': the caller's entry; Q.left
-- tells whether an entry was removed) and tells whether the lock is the caller's to release (any holder for 'force'),
-- and the owner of the hold found.
local function may_release()
    local mode = Q.mode
    if mode == 'abandon' then
        redis.call('set', Q.tombstone, '1', 'px', Q.mode_arg)
        local prefix = Q.owner .. '|'
        for _, entry in ipairs(redis.call('lrange', Q.queue, 0, -1)) do
            if string.sub(entry, 1, #prefix) == prefix then
                Q.left = redis.call('lrem', Q.queue, 0, entry) > 0 or Q.left
            end
        end
    elseif mode == 'leave' then
        Q.left = redis.call('lrem', Q.queue, 1, Q.mode_arg) > 0
    end
    local holder = redis.call('get', Q.lock)
    if not holder then
        return false, ''
    end
    local owner = split_hold(holder)
    return mode == 'force' or owner == Q.owner, owner
end
-- The lock key is free (or held by nobody live): offers it to the next live waiter, or deletes the key (it may hold a
-- lapsed offer or the released hold). Returns the reply of the release scripts for a removed hold of 'released'.
local function pass_on(released, popped)
    local next = hand_over(nil, popped)
    if next == '' then
        redis.call('del', Q.lock)
        return {1, '', 0, released}
    end
    return {1, next, Q.offer, released}
end
