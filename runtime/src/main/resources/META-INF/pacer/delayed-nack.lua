-- delayed-nack: a claimed message was not handled: retry it with backoff, dead-letter it, or release it unstarted.
-- KEYS[1]: due ZSET (member = message id, score = due epoch millis)
-- KEYS[2]: in-flight ZSET (member = message id, score = lease deadline epoch millis)
-- KEYS[3]: dead-letter ZSET (member = message id, score = dead-letter epoch millis)
-- ARGV[1]: message hash key prefix (the hash of message <id> is ARGV[1] .. <id>; same hash tag as KEYS)
-- ARGV[2]: message id
-- ARGV[3]: claim token
-- ARGV[4]: 'retry' (the handler failed), 'dead' (dead-letter now without counting an attempt, e.g. undecodable
--          payload) or 'release' (never started, e.g. shutdown: due again at its due time, no attempt counted)
-- ARGV[5]: max attempts
-- ARGV[6]: backoff in millis before the first retry; retry k waits ARGV[6] * 2^(k-1), at most ARGV[7]
-- ARGV[7]: backoff cap in millis
-- ARGV[8]: jitter, a random number in [0, 1): the delay grows by up to 20% of itself
-- ARGV[9]: reason (the failure), kept on the message
-- Returns: {outcome, due or dead-letter millis}: outcome 0 = token mismatch (the claim was lost, nothing changed),
--          1 = retry scheduled, 2 = dead-lettered, 3 = released
-- Everything is read and computed before the first write, and every number written is finite, so no command can
-- fail halfway (Redis does not roll a script back).
-- Work: O(log n) for n messages in the queue
local key = ARGV[1] .. ARGV[2]
local m = redis.call('HMGET', key, 't', 'p', 'd', 'a')
if m[1] ~= ARGV[3] then
    return {0, -1}
end
local due = tonumber(m[3])
if not m[2] or not due then
    -- A message without payload or due time cannot be delivered: drop what is left of it.
    redis.call('ZREM', KEYS[2], ARGV[2])
    redis.call('DEL', key)
    return {0, -1}
end
if ARGV[4] == 'release' then
    redis.call('ZREM', KEYS[2], ARGV[2])
    redis.call('HDEL', key, 't')
    redis.call('ZADD', KEYS[1], due, ARGV[2])
    return {3, due}
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local attempts = tonumber(m[4] or '0')
if ARGV[4] ~= 'dead' then
    attempts = attempts + 1
end
if ARGV[4] == 'dead' or attempts >= tonumber(ARGV[5]) then
    redis.call('ZREM', KEYS[2], ARGV[2])
    redis.call('HDEL', key, 't')
    redis.call('HSET', key, 'a', attempts, 'why', ARGV[9], 'x', now)
    redis.call('ZADD', KEYS[3], now, ARGV[2])
    return {2, now}
end
-- Doubling stops at the cap (at most ~42 steps for a cap of an hour), so the delay never overflows to inf or NaN.
local cap = tonumber(ARGV[7])
local delay = tonumber(ARGV[6])
local doublings = attempts - 1
while doublings > 0 and delay > 0 and delay < cap do
    delay = delay * 2
    doublings = doublings - 1
end
if delay > cap then
    delay = cap
end
due = now + math.floor(delay * (1 + 0.2 * tonumber(ARGV[8])))
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('HDEL', key, 't')
redis.call('HSET', key, 'a', attempts, 'why', ARGV[9], 'd', due)
redis.call('ZADD', KEYS[1], due, ARGV[2])
return {1, due}
