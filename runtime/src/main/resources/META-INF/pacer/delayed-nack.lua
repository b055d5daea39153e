-- delayed-nack: a claimed message was not handled: retry it with backoff, dead-letter it, or release it unstarted.
-- KEYS[1]: due ZSET (member = message id, score = due epoch millis)
-- KEYS[2]: in-flight ZSET (member = message id, score = lease deadline epoch millis)
-- KEYS[3]: dead-letter ZSET (member = message id, score = dead-letter epoch millis)
-- ARGV[1]: message hash key prefix (the hash of message <id> is ARGV[1] .. <id>; same hash tag as KEYS)
-- ARGV[2]: message id
-- ARGV[3]: claim token
-- ARGV[4]: 'retry' (the handler failed), 'dead' (dead-letter now, e.g. undecodable payload) or 'release' (never
--          started, e.g. shutdown: due again at its due time, no attempt counted)
-- ARGV[5]: max attempts
-- ARGV[6]: backoff in millis before the first retry; retry k waits ARGV[6] * 2^(k-1)
-- ARGV[7]: backoff cap in millis
-- ARGV[8]: jitter, a random number in [0, 1): the delay grows by up to 20% of itself
-- ARGV[9]: reason (the failure), kept on the message
-- Returns: {outcome, due or dead-letter millis}: outcome 0 = token mismatch (the claim was lost, nothing changed),
--          1 = retry scheduled, 2 = dead-lettered, 3 = released
-- Work: O(log n) for n messages in the queue
local key = ARGV[1] .. ARGV[2]
if redis.call('HGET', key, 't') ~= ARGV[3] then
    return {0, -1}
end
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('HDEL', key, 't')
if ARGV[4] == 'release' then
    local due = tonumber(redis.call('HGET', key, 'd'))
    redis.call('ZADD', KEYS[1], due, ARGV[2])
    return {3, due}
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local attempts = redis.call('HINCRBY', key, 'a', 1)
redis.call('HSET', key, 'why', ARGV[9])
if ARGV[4] == 'dead' or attempts >= tonumber(ARGV[5]) then
    redis.call('HSET', key, 'x', now)
    redis.call('ZADD', KEYS[3], now, ARGV[2])
    return {2, now}
end
local delay = tonumber(ARGV[6]) * (2 ^ (attempts - 1))
if delay > tonumber(ARGV[7]) then
    delay = tonumber(ARGV[7])
end
local due = now + math.floor(delay * (1 + 0.2 * tonumber(ARGV[8])))
redis.call('HSET', key, 'd', due)
redis.call('ZADD', KEYS[1], due, ARGV[2])
return {1, due}
