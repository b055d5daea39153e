-- recurring-get: one recurring schedule, read only.
-- KEYS: as recurring-upsert.lua
-- ARGV[1]: id
-- Returns: { now millis, definition or nil, next fire time or -1, 1 when paused else 0 }
-- Work: O(1)
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local definition = redis.call('HGET', KEYS[1], ARGV[1])
if not definition then
    return { now, false, -1, 0 }
end
local score = redis.call('ZSCORE', KEYS[2], ARGV[1])
if score == 'inf' then
    return { now, definition, tonumber(redis.call('HGET', KEYS[3], ARGV[1]) or -1), 1 }
end
return { now, definition, score and tonumber(score) or -1, 0 }
