-- delayed-deliver-now: makes one waiting or dead-lettered message due at once.
-- KEYS: the shard's keys in DelayedKeys order: [1] due ZSET (member = message id, score = due epoch millis),
--       [2] in-flight ZSET (not touched), [3] dead-letter ZSET (score = dead-letter epoch millis),
--       [4] messages HASH (id -> '<encoding><due>:<attempts>:<redeliveries>:<payload>'),
--       [5] claim tokens HASH (id -> token), [6] dead-letter reasons HASH (id -> reason)
-- ARGV[1]: message id
-- ARGV[2]: wake-up channel, notified with the new due time
-- Returns: 1 when a waiting message was made due, 2 when a dead letter was replayed (attempts reset), 0 when there is
--          no such waiting or dead-lettered message (unknown, or in flight: already being delivered)
-- Work: O(log n + payload) for n messages in the queue
local id = ARGV[1]
local waiting = redis.call('ZSCORE', KEYS[1], id)
local dead = (not waiting) and redis.call('ZSCORE', KEYS[3], id)
if not waiting and not dead then
    return 0
end
local e, _, a, r, v, at = read_message(id)
-- An index entry whose message is gone (evicted or deleted) cannot be delivered: drop the entry, store nothing.
if not e then
    redis.call('ZREM', waiting and KEYS[1] or KEYS[3], id)
    redis.call('HDEL', KEYS[6], id)
    return 0
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local outcome = 1
if dead then
    redis.call('ZREM', KEYS[3], id)
    redis.call('HDEL', KEYS[5], id)
    redis.call('HDEL', KEYS[6], id)
    a, r = 0, 0
    outcome = 2
end
redis.call('HSET', KEYS[4], id, string.format('%s%d:%s:%s:', e, now, a, r) .. string.sub(v, at))
redis.call('ZADD', KEYS[1], now, id)
redis.call('PUBLISH', ARGV[2], now)
return outcome
