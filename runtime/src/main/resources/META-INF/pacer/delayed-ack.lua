-- delayed-ack: acknowledges handled messages; only the holder of the current claim token can.
-- KEYS[1]: in-flight ZSET (member = message id, score = lease deadline epoch millis)
-- ARGV[1]: message hash key prefix (the hash of message <id> is ARGV[1] .. <id>; same hash tag as KEYS)
-- ARGV[2..]: pairs of message id, claim token (the caller sends at most 256 pairs)
-- Returns: the number of messages acknowledged (deleted); a pair whose token no longer matches is skipped
-- Work: O(p * log n) for p pairs and n in-flight messages
local acked = 0
for i = 2, #ARGV, 2 do
    local key = ARGV[1] .. ARGV[i]
    if redis.call('HGET', key, 't') == ARGV[i + 1] then
        redis.call('ZREM', KEYS[1], ARGV[i])
        redis.call('DEL', key)
        acked = acked + 1
    end
end
return acked
