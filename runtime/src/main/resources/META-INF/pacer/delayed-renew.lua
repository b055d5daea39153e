-- delayed-renew: extends the leases of messages whose handlers are still running (or about to run).
-- KEYS: the shard's keys in DelayedKeys order: [1] due ZSET (not touched), [2] in-flight ZSET (member = message id,
--       score = lease deadline epoch millis), [3] dead-letter ZSET (not touched), [4] messages HASH (not touched),
--       [5] claim tokens HASH (id -> token, in flight only, read), [6] dead-letter reasons HASH (not touched)
-- ARGV[1]: lease in millis, counted from Redis TIME
-- ARGV[2..]: pairs of message id, claim token (the caller sends at most 256 pairs)
-- Returns: the number of leases renewed; a pair whose token no longer matches is skipped
-- Work: O(p * log n) for p pairs and n in-flight messages
local t = redis.call('TIME')
local deadline = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[1])
local renewed = 0
for i = 2, #ARGV, 2 do
    if redis.call('HGET', KEYS[5], ARGV[i]) == ARGV[i + 1] then
        redis.call('ZADD', KEYS[2], 'XX', deadline, ARGV[i])
        renewed = renewed + 1
    end
end
return renewed
