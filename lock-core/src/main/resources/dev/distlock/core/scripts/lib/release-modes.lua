-- Shared by release.lua and write-release.lua, which take the same KEYS[1..4] and ARGV[1..6] (see release.lua);
-- spliced in after lib/queue.lua.
-- Applies the mode to the queue ('abandon': tombstone and every entry of the owner; 'leave': the caller's entry; Q.left
-- tells whether an entry was removed) and tells whether the lock is the caller's to release (any holder for 'force'),
-- and the owner of the hold found.
local function may_release()
    local mode = ARGV[1]
    if mode == 'abandon' then
        redis.call('set', KEYS[4], '1', 'px', ARGV[6])
        local prefix = ARGV[2] .. '|'
        for _, entry in ipairs(redis.call('lrange', KEYS[3], 0, -1)) do
            if string.sub(entry, 1, #prefix) == prefix then
                Q.left = redis.call('lrem', KEYS[3], 0, entry) > 0 or Q.left
            end
        end
    elseif mode == 'leave' then
        Q.left = redis.call('lrem', KEYS[3], 1, ARGV[6]) > 0
    end
    local holder = redis.call('get', KEYS[1])
    if not holder then
        return false, ''
    end
    local owner = split_hold(holder)
    return mode == 'force' or owner == ARGV[2], owner
end
-- The lock key is free (or held by nobody live): offers it to the next live waiter, or deletes the key (it may hold a
-- skipped waiter's offer). Returns the reply of the release scripts for a removed hold of 'released'.
local function pass_on(released, popped)
    local next = hand_over(nil, popped)
    if next == '' then
        redis.call('del', KEYS[1])
        return {1, '', 0, released}
    end
    return {1, next, Q.offer, released}
end
