-- Shared by release.lua and write-release.lua, which take the same KEYS[1..4] and ARGV[1..6] (see release.lua);
-- spliced in after lib/queue.lua.
-- Applies the mode to the queue ('abandon': tombstone and every entry of the owner; 'leave': the caller's entry) and
-- tells whether the lock is the caller's to release (any holder for 'force').
local function may_release()
    local mode = ARGV[1]
    if mode == 'abandon' then
        redis.call('set', KEYS[4], '1', 'px', ARGV[6])
        local prefix = ARGV[2] .. '|'
        for _, entry in ipairs(redis.call('lrange', KEYS[3], 0, -1)) do
            if string.sub(entry, 1, #prefix) == prefix then
                redis.call('lrem', KEYS[3], 0, entry)
            end
        end
    elseif mode == 'leave' then
        redis.call('lrem', KEYS[3], 1, ARGV[6])
    end
    local holder = redis.call('get', KEYS[1])
    return holder and (mode == 'force' or holder == ARGV[2])
end
