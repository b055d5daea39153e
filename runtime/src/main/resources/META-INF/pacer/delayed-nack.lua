-- delayed-nack: a claimed message was not handled: retry it with backoff, dead-letter it, or release it unstarted.
-- KEYS: the shard's keys in DelayedKeys order: [1] due ZSET (member = message id, score = due epoch millis),
--       [2] in-flight ZSET (score = lease deadline epoch millis), [3] dead-letter ZSET (score = dead-letter epoch
--       millis), [4] messages HASH (id -> '<encoding><due>:<attempts>:<redeliveries>:<payload>'),
--       [5] claim tokens HASH (id -> token, in flight only), [6] dead-letter reasons HASH (id -> reason)
-- ARGV[1]: message id
-- ARGV[2]: claim token
-- ARGV[3]: 'retry' (the handler failed), 'dead' (dead-letter now without counting an attempt, e.g. undecodable
--          payload) or 'release' (never started, e.g. shutdown: due again at its due time, no attempt counted)
-- ARGV[4]: max attempts
-- ARGV[5]: backoff in millis before the first retry; retry k waits ARGV[5] * 2^(k-1), at most ARGV[6]
-- ARGV[6]: backoff cap in millis
-- ARGV[7]: jitter, a random number in [0, 1): the delay grows by up to 20% of itself
-- ARGV[8]: reason (the failure), kept with a dead letter
-- Returns: {outcome, due or dead-letter millis}: outcome 0 = token mismatch (the claim was lost, nothing changed),
--          1 = retry scheduled, 2 = dead-lettered, 3 = released
-- Everything is read and computed before the first write, and every number written is finite, so no command can
-- fail halfway (Redis does not roll a script back).
-- Work: O(log n + payload) for n messages in the queue
local id = ARGV[1]
local e, due, attempts, r, v, at = read_claimed_message(id, ARGV[2])
if not e then
    return {0, -1}
end
due = tonumber(due)
if ARGV[3] == 'release' then
    redis.call('ZREM', KEYS[2], id)
    redis.call('HDEL', KEYS[5], id)
    redis.call('ZADD', KEYS[1], due, id)
    return {3, due}
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
attempts = tonumber(attempts)
if ARGV[3] ~= 'dead' then
    attempts = attempts + 1
end
local payload = string.sub(v, at)
if ARGV[3] == 'dead' or attempts >= tonumber(ARGV[4]) then
    redis.call('ZREM', KEYS[2], id)
    redis.call('HDEL', KEYS[5], id)
    redis.call('HSET', KEYS[4], id, string.format('%s%d:%d:%s:', e, due, attempts, r) .. payload)
    redis.call('HSET', KEYS[6], id, ARGV[8])
    redis.call('ZADD', KEYS[3], now, id)
    return {2, now}
end
-- Doubling stops at the cap (at most ~42 steps for a cap of an hour), so the delay never overflows to inf or NaN.
local cap = tonumber(ARGV[6])
local delay = tonumber(ARGV[5])
local doublings = attempts - 1
while doublings > 0 and delay > 0 and delay < cap do
    delay = delay * 2
    doublings = doublings - 1
end
if delay > cap then
    delay = cap
end
due = now + math.floor(delay * (1 + 0.2 * tonumber(ARGV[7])))
redis.call('ZREM', KEYS[2], id)
redis.call('HDEL', KEYS[5], id)
redis.call('HSET', KEYS[4], id, string.format('%s%d:%d:%s:', e, due, attempts, r) .. payload)
redis.call('ZADD', KEYS[1], due, id)
return {1, due}
