-- delayed-ack: acknowledges handled messages; only the holder of the current claim token can.
-- KEYS: the shard's keys in DelayedKeys order: [1] due ZSET (not touched), [2] in-flight ZSET (member = message id,
--       score = lease deadline epoch millis), [3] dead-letter ZSET (not touched), [4] messages HASH (id -> message),
--       [5] claim tokens HASH (id -> token, in flight only), [6] dead-letter reasons HASH (not touched)
-- ARGV[1..]: pairs of message id, claim token (the caller sends at most 256 pairs)
-- Returns: the number of messages acknowledged (deleted); a pair whose token no longer matches is skipped
-- Work: O(p * log n) for p pairs and n in-flight messages
local acked = 0
for i = 1, #ARGV, 2 do
    local id = ARGV[i]
    if redis.call('HGET', KEYS[5], id) == ARGV[i + 1] then
        redis.call('ZREM', KEYS[2], id)
        redis.call('HDEL', KEYS[4], id)
        redis.call('HDEL', KEYS[5], id)
        acked = acked + 1
    end
end
return acked
