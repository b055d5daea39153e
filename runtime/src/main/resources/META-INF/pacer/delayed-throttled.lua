-- delayed-throttled: a claimed message's handler was rate-limited (it failed with ThrottledException): the message is
-- due again after the decision's retry-after, without counting an attempt (a rejection is not a failure).
-- KEYS: the shard's keys in DelayedKeys order: [1] due ZSET (member = message id, score = due epoch millis),
--       [2] in-flight ZSET (score = lease deadline epoch millis), [3] dead-letter ZSET (not touched),
--       [4] messages HASH (id -> '<encoding><due>:<attempts>:<redeliveries>:<payload>'),
--       [5] claim tokens HASH (id -> token, in flight only), [6] dead-letter reasons HASH (not touched)
-- ARGV[1]: message id
-- ARGV[2]: claim token
-- ARGV[3]: delay in millis (the retry-after, rounded up)
-- Returns: {outcome, due millis}: outcome 0 = token mismatch (the claim was lost, nothing changed), 4 = rescheduled
-- Work: O(log n + payload) for n messages in the queue
local id = ARGV[1]
local e, _, a, r, v, at = read_claimed_message(id, ARGV[2])
if not e then
    return {0, -1}
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local due = now + tonumber(ARGV[3])
redis.call('ZREM', KEYS[2], id)
redis.call('HDEL', KEYS[5], id)
redis.call('HSET', KEYS[4], id, string.format('%s%d:%s:%s:', e, due, a, r) .. string.sub(v, at))
redis.call('ZADD', KEYS[1], due, id)
return {4, due}
