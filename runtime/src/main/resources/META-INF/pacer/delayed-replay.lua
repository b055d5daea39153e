-- delayed-replay: moves dead letters back to the queue, due now, with attempts reset.
-- KEYS[1]: due ZSET, KEYS[2]: dead-letter ZSET
-- ARGV[1]: message hash key prefix (the hash of message <id> is ARGV[1] .. <id>; same hash tag as KEYS)
-- ARGV[2]: one message id, or '' for the oldest dead letters
-- ARGV[3]: most dead letters to replay when ARGV[2] is '' (the caller repeats until fewer come back)
-- ARGV[4]: wake-up channel, notified once when something was replayed
-- Returns: the number of messages replayed
-- Work: O(ARGV[3] * log n) for n messages in the queue
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ids
if ARGV[2] ~= '' then
    ids = {}
    if redis.call('ZSCORE', KEYS[2], ARGV[2]) then
        ids[1] = ARGV[2]
    end
else
    ids = redis.call('ZRANGE', KEYS[2], 0, tonumber(ARGV[3]) - 1)
end
for _, id in ipairs(ids) do
    local key = ARGV[1] .. id
    redis.call('ZREM', KEYS[2], id)
    redis.call('HSET', key, 'a', 0, 'r', 0, 'd', now)
    redis.call('HDEL', key, 'why', 'x', 't')
    redis.call('ZADD', KEYS[1], now, id)
end
if #ids > 0 then
    redis.call('PUBLISH', ARGV[4], now)
end
return #ids
