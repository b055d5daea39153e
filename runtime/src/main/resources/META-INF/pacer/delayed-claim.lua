-- delayed-claim: reclaims expired leases, then leases up to N due messages to the caller.
-- KEYS: the shard's keys in DelayedKeys order: [1] due ZSET (member = message id, score = due epoch millis),
--       [2] in-flight ZSET (score = lease deadline epoch millis), [3] dead-letter ZSET (not touched),
--       [4] messages HASH (id -> '<encoding><due>:<attempts>:<redeliveries>:<payload>'),
--       [5] claim tokens HASH (id -> token, in flight only), [6] dead-letter reasons HASH (not touched)
-- ARGV[1]: most messages to claim (batch size)
-- ARGV[2]: lease in millis
-- ARGV[3]: most expired leases to reclaim in this call
-- ARGV[4]: claim nonce, unique per call: claim tokens are ARGV[4] .. ':' .. i
-- Returns: {now millis, next wake-up millis or -1 (the earliest due time or lease deadline), reclaimed count,
--           then per claimed message: id, token, payload, encoding, attempt, redeliveries, due millis}
-- Work: O((ARGV[1] + ARGV[3]) * (log n + payload)) for n messages in the queue
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)

-- An id whose message is not here can only be in a slot that Redis Cluster is moving, or its messages hash was
-- evicted: it is looked at again a second later instead of being dropped.
local MOVING_RETRY = 1000

-- A lease that expired belongs to a consumer that died or stalled: the message is due again, at its old due time.
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(expired) do
    local e, due, a, r, v, at = read_message(id)
    if e then
        redis.call('ZREM', KEYS[2], id)
        redis.call('HDEL', KEYS[5], id)
        redis.call('HSET', KEYS[4], id, string.format('%s%s:%s:%d:', e, due, a, tonumber(r) + 1) .. string.sub(v, at))
        redis.call('ZADD', KEYS[1], due, id)
    else
        redis.call('ZADD', KEYS[2], now + MOVING_RETRY, id)
    end
end

local out = {now, -1, #expired}
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[1]))
local deadline = now + tonumber(ARGV[2])
for i, id in ipairs(ids) do
    local e, due, a, r, v, at = read_message(id)
    if not e then
        redis.call('ZADD', KEYS[1], now + MOVING_RETRY, id)
    else
        redis.call('ZREM', KEYS[1], id)
        local token = ARGV[4] .. ':' .. i
        redis.call('HSET', KEYS[5], id, token)
        redis.call('ZADD', KEYS[2], deadline, id)
        out[#out + 1] = id
        out[#out + 1] = token
        out[#out + 1] = string.sub(v, at)
        out[#out + 1] = e
        out[#out + 1] = tonumber(a) + 1
        out[#out + 1] = tonumber(r)
        out[#out + 1] = tonumber(due)
    end
end
-- The caller sleeps until the earliest due time, or the earliest lease deadline (a lease may expire unrenewed).
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local lease = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
if first[2] then
    out[2] = tonumber(first[2])
end
if lease[2] and (out[2] == -1 or tonumber(lease[2]) < out[2]) then
    out[2] = tonumber(lease[2])
end
return out
