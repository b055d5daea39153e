-- delayed-deliver-now: makes one waiting or dead-lettered message due at once.
-- KEYS[1]: due ZSET (member = message id, score = due epoch millis)
-- KEYS[2]: dead-letter ZSET (member = message id, score = dead-letter epoch millis)
-- ARGV[1]: message hash key prefix (the hash of message <id> is ARGV[1] .. <id>; same hash tag as KEYS)
-- ARGV[2]: message id
-- ARGV[3]: wake-up channel, notified with the new due time
-- Returns: 1 when a waiting message was made due, 2 when a dead letter was replayed (attempts reset), 0 when there is
--          no such waiting or dead-lettered message (unknown, or in flight: already being delivered)
-- Work: O(log n) for n messages in the queue
local key = ARGV[1] .. ARGV[2]
local waiting = redis.call('ZSCORE', KEYS[1], ARGV[2])
local dead = (not waiting) and redis.call('ZSCORE', KEYS[2], ARGV[2])
if not waiting and not dead then
    return 0
end
-- An index entry whose hash is gone (evicted or deleted) cannot be delivered: drop the entry, store nothing.
if redis.call('HEXISTS', key, 'p') == 0 then
    redis.call('ZREM', waiting and KEYS[1] or KEYS[2], ARGV[2])
    return 0
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local outcome = 1
if dead then
    redis.call('ZREM', KEYS[2], ARGV[2])
    redis.call('HSET', key, 'a', 0, 'r', 0)
    redis.call('HDEL', key, 'why', 'x', 't')
    outcome = 2
end
redis.call('HSET', key, 'd', now)
redis.call('ZADD', KEYS[1], now, ARGV[2])
redis.call('PUBLISH', ARGV[3], now)
return outcome
