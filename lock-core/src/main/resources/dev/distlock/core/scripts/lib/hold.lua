-- Shared by the scripts that store or read holds (spliced in where a script says '--@include hold'; see LuaScript).
-- A hold is stored as 'owner|token' (the lock or write key's value, a reader's member): the owner and the fencing
-- token minted for that very hold, so a check, a reentry or an inspection reports the holder's own token. Its token
-- may be left to the holder's request (mint.lua): a hold take.lua wrote is 'owner|' until mint.lua or the first waiter
-- behind it mints it, a hold handed over by lib/offer.lua is 'owner|-' until mint.lua does.
local function hold_of(owner, token)
    return owner .. '|' .. token
end
-- The owner and token of a stored hold: token '' or '-' when it is still to be minted (as take.lua or lib/offer.lua
-- wrote it), '0' for a value without '|' (written before tokens were stored).
local function split_hold(value)
    local owner, token = string.match(value, '^(.*)|(%d*%-?)$')
    if owner then
        return owner, token
    end
    return value, '0'
end
