-- recurring-fire: moves due recurring schedules on to their next fire time, each with a compare-and-set on the next fire
-- time and spec the caller read (recurring-read.lua), so of all the instances that read the same schedule exactly one
-- moves it. A tick to fire is recorded as pending, with a lease, in the same step: from then on it is either stored
-- in its delay queue by this caller (recurring-done.lua) or, once the lease expired, by another instance
-- (recurring-redo.lua).
-- KEYS: as recurring-upsert.lua
-- ARGV[1]: lease in millis, counted from Redis TIME
-- ARGV[2..]: five per schedule: id, next fire time read, spec read, new next fire time, tick to fire ('' for none)
-- Returns: { now millis, { outcome, definition, ... } }, one pair per schedule: outcome 1 = moved (the tick, if any,
--          is pending as '<tick>:1:<id>' and is the caller's to store, with the definition returned), 0 = another
--          instance moved it first, or it was paused, changed or deleted meanwhile (definition '')
-- Work: O(k log n) for k schedules of n
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[1])
local results = {}
for i = 2, #ARGV, 5 do
    local id, expected, spec, newNext, tick = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4]
    local definition = redis.call('HGET', KEYS[1], id)
    local score = redis.call('ZSCORE', KEYS[2], id)
    local prefix = spec .. '\n'
    if not definition then
        -- an index entry without its definition: nothing to fire
        redis.call('ZREM', KEYS[2], id)
        results[#results + 1] = 0
        results[#results + 1] = ''
    elseif not score or score == 'inf' or tonumber(score) ~= tonumber(expected)
            or string.sub(definition, 1, #prefix) ~= prefix then
        results[#results + 1] = 0
        results[#results + 1] = ''
    else
        redis.call('ZADD', KEYS[2], newNext, id)
        if tick ~= '' then
            redis.call('ZADD', KEYS[4], now + lease, tick .. ':1:' .. id)
        end
        results[#results + 1] = 1
        results[#results + 1] = definition
    end
end
return { now, results }
