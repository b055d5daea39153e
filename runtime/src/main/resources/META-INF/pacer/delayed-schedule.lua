-- delayed-schedule: stores a message of a delay queue and indexes it by due time (upsert or if-absent).
-- KEYS[1]: due ZSET (member = message id, score = due epoch millis)
-- KEYS[2]: in-flight ZSET (member = message id, score = lease deadline epoch millis)
-- KEYS[3]: dead-letter ZSET (member = message id, score = dead-letter epoch millis)
-- ARGV[1]: message hash key prefix (the hash of message <id> is ARGV[1] .. <id>; same hash tag as KEYS)
-- ARGV[2]: message id
-- ARGV[3]: payload
-- ARGV[4]: payload encoding ('t' text/JSON, 'b' base64 bytes)
-- ARGV[5]: mode: 'upsert' (replace an existing message of the same id) or 'absent' (keep an existing one)
-- ARGV[6]: due time in epoch millis, or '' to use Redis TIME + ARGV[7]
-- ARGV[7]: delay in millis, added to Redis TIME when ARGV[6] is ''
-- ARGV[8]: wake-up channel, notified with the due time when the message becomes the queue's earliest
-- Returns: {1, due millis} when stored, {0, 0} when mode is 'absent' and the id exists
-- Work: O(log n) for n messages in the queue
local key = ARGV[1] .. ARGV[2]
if ARGV[5] == 'absent' and redis.call('EXISTS', key) == 1 then
    return {0, 0}
end
local due
if ARGV[6] ~= '' then
    due = tonumber(ARGV[6])
else
    local t = redis.call('TIME')
    due = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[7])
end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
-- An upsert takes the message out of every state; a running handler's claim token is dropped with it. The
-- removals run even when no hash existed: a hash that vanished (evicted, deleted) may have left its id behind.
redis.call('DEL', key)
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('ZREM', KEYS[3], ARGV[2])
redis.call('HSET', key, 'p', ARGV[3], 'e', ARGV[4], 'd', due, 'a', 0, 'r', 0)
redis.call('ZADD', KEYS[1], due, ARGV[2])
if first[2] == nil or due < tonumber(first[2]) then
    redis.call('PUBLISH', ARGV[8], due)
end
return {1, due}
