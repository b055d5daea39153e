-- delayed-schedule: stores a message of a delay queue and indexes it by due time (upsert or if-absent).
-- KEYS: the shard's keys in DelayedKeys order: [1] due ZSET (member = message id, score = due epoch millis),
--       [2] in-flight ZSET, [3] dead-letter ZSET, [4] messages HASH (id -> '<encoding><due>:<attempts>:<redeliveries>:
--       <payload>'), [5] claim tokens HASH (id -> token, in flight only), [6] dead-letter reasons HASH (id -> reason)
-- ARGV[1]: message id
-- ARGV[2]: payload part: the payload, after '<n>:<trace context>' when the encoding is upper case
-- ARGV[3]: payload encoding ('t' text/JSON, 'b' base64 bytes; 'T', 'B' with a trace context)
-- ARGV[4]: mode: 'upsert' (replace an existing message of the same id, keeping its trace context) or 'absent' (keep
--          an existing one)
-- ARGV[5]: due time in epoch millis, or '' to use Redis TIME + ARGV[6]
-- ARGV[6]: delay in millis, added to Redis TIME when ARGV[5] is ''
-- ARGV[7]: wake-up channel, notified with the due time when the message becomes the queue's earliest
-- Returns: {1, due millis} when stored, {0, 0} when mode is 'absent' and the id exists
-- Work: O(log n + payload) for n messages in the queue
local id = ARGV[1]
if ARGV[4] == 'absent' and redis.call('HEXISTS', KEYS[4], id) == 1 then
    return {0, 0}
end
local due
if ARGV[5] ~= '' then
    due = tonumber(ARGV[5])
else
    local t = redis.call('TIME')
    due = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[6])
end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
-- An upsert takes the message out of every state; a running handler's claim token is dropped with it. The
-- removals run even when no message existed: a message that vanished (evicted, deleted) may have left its id behind.
redis.call('ZREM', KEYS[2], id)
redis.call('ZREM', KEYS[3], id)
redis.call('HDEL', KEYS[5], id)
redis.call('HDEL', KEYS[6], id)
local encoding, value = upserted(id, ARGV[3], ARGV[2])
redis.call('HSET', KEYS[4], id, string.format('%s%d:0:0:', encoding, due) .. value)
redis.call('ZADD', KEYS[1], due, id)
if first[2] == nil or due < tonumber(first[2]) then
    redis.call('PUBLISH', ARGV[7], due)
end
return {1, due}
