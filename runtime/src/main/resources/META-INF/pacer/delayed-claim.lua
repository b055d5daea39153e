-- delayed-claim: reclaims expired leases, then leases up to N due messages to the caller.
-- KEYS[1]: due ZSET (member = message id, score = due epoch millis)
-- KEYS[2]: in-flight ZSET (member = message id, score = lease deadline epoch millis)
-- ARGV[1]: message hash key prefix (the hash of message <id> is ARGV[1] .. <id>; same hash tag as KEYS)
-- ARGV[2]: most messages to claim (batch size)
-- ARGV[3]: lease in millis
-- ARGV[4]: most expired leases to reclaim in this call
-- ARGV[5]: claim nonce, unique per call: claim tokens are ARGV[5] .. ':' .. i
-- Returns: {now millis, next wake-up millis or -1 (the earliest due time or lease deadline), reclaimed count,
--           then per claimed message: id, token, payload, encoding, attempt, redeliveries, due millis}
-- Work: O((ARGV[2] + ARGV[4]) * log n) for n messages in the queue
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local prefix = ARGV[1]

-- A message whose hash is not here while its id is can only be in a slot that Redis Cluster is moving (MIGRATE moves
-- keys one by one): it is looked at again a second later, when the whole slot has arrived, instead of being dropped.
local MOVING_RETRY = 1000

-- A lease that expired belongs to a consumer that died or stalled: the message is due again, at its old due time.
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, tonumber(ARGV[4]))
for _, id in ipairs(expired) do
    local key = prefix .. id
    local due = redis.call('HGET', key, 'd')
    if due then
        redis.call('ZREM', KEYS[2], id)
        redis.call('HDEL', key, 't')
        redis.call('HINCRBY', key, 'r', 1)
        redis.call('ZADD', KEYS[1], due, id)
    else
        redis.call('ZADD', KEYS[2], now + MOVING_RETRY, id)
    end
end

local out = {now, -1, #expired}
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[2]))
local deadline = now + tonumber(ARGV[3])
for i, id in ipairs(ids) do
    local key = prefix .. id
    local m = redis.call('HMGET', key, 'p', 'e', 'a', 'r', 'd')
    if not m[1] then
        redis.call('ZADD', KEYS[1], now + MOVING_RETRY, id)
    else
        redis.call('ZREM', KEYS[1], id)
        local token = ARGV[5] .. ':' .. i
        redis.call('HSET', key, 't', token)
        redis.call('ZADD', KEYS[2], deadline, id)
        out[#out + 1] = id
        out[#out + 1] = token
        out[#out + 1] = m[1]
        out[#out + 1] = m[2]
        out[#out + 1] = tonumber(m[3]) + 1
        out[#out + 1] = tonumber(m[4])
        out[#out + 1] = tonumber(m[5])
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
