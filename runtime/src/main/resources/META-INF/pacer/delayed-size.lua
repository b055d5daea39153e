-- delayed-size: the number of messages of a queue in each state, and how overdue the oldest due message is.
-- KEYS: the shard's keys in DelayedKeys order: [1] due ZSET, [2] in-flight ZSET, [3] dead-letter ZSET (the
--       messages, claim tokens and reasons hashes, [4] to [6], are not touched)
-- ARGV: none
-- Returns: {scheduled count (due later), overdue count (due now or earlier, not yet claimed), in-flight count,
--           dead-letter count, due millis of the oldest overdue message or -1, now millis}
-- Work: O(log n) for n waiting messages
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local waiting = redis.call('ZCARD', KEYS[1])
local overdue = redis.call('ZCOUNT', KEYS[1], '-inf', now)
local oldest = -1
if overdue > 0 then
    oldest = tonumber(redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2])
end
return {waiting - overdue, overdue, redis.call('ZCARD', KEYS[2]), redis.call('ZCARD', KEYS[3]), oldest, now}
