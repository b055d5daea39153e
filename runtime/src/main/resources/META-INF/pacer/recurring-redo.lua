-- recurring-redo: takes over fired ticks whose pending lease expired (the instance that fired them stopped before it
-- stored them in their delay queue), so that the calling instance stores them; a compare on the lease, so one instance
-- takes each. A tick is started at most ARGV[2] times, and a tick of a deleted schedule is dropped.
-- KEYS: as recurring-upsert.lua
-- ARGV[1]: lease in millis, counted from Redis TIME, ARGV[2]: most starts of one tick
-- ARGV[3..]: the expired members read ('<tick>:<start>:<id>')
-- Returns: { outcome, definition, new member, ... }, three per member: outcome 1 = taken over (store the tick, then
--          remove the new member with recurring-done.lua), 0 = another instance took it, or it was stored meanwhile,
--          2 = dropped: its schedule was deleted, 3 = dropped: started ARGV[2] times
-- Work: O(k log p) for k members of p pending ticks
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[1])
local maxStarts = tonumber(ARGV[2])
local results = {}
for i = 3, #ARGV do
    local member = ARGV[i]
    local deadline = redis.call('ZSCORE', KEYS[4], member)
    local outcome, definition, taken = 0, '', ''
    if deadline and tonumber(deadline) <= now then
        redis.call('ZREM', KEYS[4], member)
        local tick, start, id = string.match(member, '^(%d+):(%d+):(.*)$')
        definition = id and redis.call('HGET', KEYS[1], id) or false
        if not definition then
            outcome, definition = 2, ''
        elseif tonumber(start) >= maxStarts then
            outcome, definition = 3, ''
        else
            taken = tick .. ':' .. (tonumber(start) + 1) .. ':' .. id
            redis.call('ZADD', KEYS[4], now + lease, taken)
            outcome = 1
        end
    end
    results[#results + 1] = outcome
    results[#results + 1] = definition
    results[#results + 1] = taken
end
return results
