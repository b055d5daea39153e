-- delayed-throttled: a claimed message's handler was rate-limited (it failed with ThrottledException): the message is
-- due again after the decision's retry-after, without counting an attempt (a rejection is not a failure).
-- KEYS[1]: due ZSET (member = message id, score = due epoch millis)
-- KEYS[2]: in-flight ZSET (member = message id, score = lease deadline epoch millis)
-- ARGV[1]: message hash key prefix (the hash of message <id> is ARGV[1] .. <id>; same hash tag as KEYS)
-- ARGV[2]: message id
-- ARGV[3]: claim token
-- ARGV[4]: delay in millis (the retry-after, rounded up)
-- Returns: {outcome, due millis}: outcome 0 = token mismatch (the claim was lost, nothing changed), 4 = rescheduled
-- Work: O(log n) for n messages in the queue
local key = ARGV[1] .. ARGV[2]
if redis.call('HGET', key, 't') ~= ARGV[3] then
    return {0, -1}
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local due = now + tonumber(ARGV[4])
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('HDEL', key, 't')
redis.call('HSET', key, 'd', due)
redis.call('ZADD', KEYS[1], due, ARGV[2])
return {4, due}
