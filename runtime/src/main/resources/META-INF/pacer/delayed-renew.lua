-- delayed-renew: extends the leases of messages whose handlers are still running (or about to run).
-- KEYS[1]: in-flight ZSET (member = message id, score = lease deadline epoch millis)
-- ARGV[1]: message hash key prefix (the hash of message <id> is ARGV[1] .. <id>; same hash tag as KEYS)
-- ARGV[2]: lease in millis, counted from Redis TIME
-- ARGV[3..]: pairs of message id, claim token (the caller sends at most 256 pairs)
-- Returns: the number of leases renewed; a pair whose token no longer matches is skipped
-- Work: O(p * log n) for p pairs and n in-flight messages
local t = redis.call('TIME')
local deadline = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[2])
local renewed = 0
for i = 3, #ARGV, 2 do
    if redis.call('HGET', ARGV[1] .. ARGV[i], 't') == ARGV[i + 1] then
        redis.call('ZADD', KEYS[1], 'XX', deadline, ARGV[i])
        renewed = renewed + 1
    end
end
return renewed
