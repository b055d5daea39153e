-- delayed-replay: moves dead letters back to the queue, due now, with attempts reset.
-- KEYS[1]: due ZSET, KEYS[2]: dead-letter ZSET
-- ARGV[1]: message hash key prefix (the hash of message <id> is ARGV[1] .. <id>; same hash tag as KEYS)
-- ARGV[2]: one message id, or '' for the oldest dead letters
-- ARGV[3]: most dead letters to replay when ARGV[2] is '' (the caller repeats until fewer come back)
-- ARGV[4]: wake-up channel, notified once when something was replayed
-- ARGV[5]: when ARGV[2] is '': only dead letters dead-lettered at or before these epoch millis ('' = Redis TIME now),
--          so a replay that repeats ends even while replayed messages are dead-lettered again
-- Returns: {messages replayed, the cut-off used in millis, dead letters visited (replayed or removed), dead letters
--          at or before the cut-off before this call (the caller's bound on repeating)}. A dead letter whose message hash is gone (evicted or
--          deleted) is removed from the dead letters and not replayed: a message is never created without payload.
-- Work: O((ARGV[3] + 1) * log n) for n messages in the queue
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local cutoff = now
if ARGV[5] and ARGV[5] ~= '' then
    cutoff = tonumber(ARGV[5])
end
local pending = 0
local ids
if ARGV[2] ~= '' then
    ids = {}
    if redis.call('ZSCORE', KEYS[2], ARGV[2]) then
        ids[1] = ARGV[2]
    end
else
    pending = redis.call('ZCOUNT', KEYS[2], '-inf', cutoff)
    ids = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', cutoff, 'LIMIT', 0, tonumber(ARGV[3]))
end
local replayed = 0
for _, id in ipairs(ids) do
    local key = ARGV[1] .. id
    redis.call('ZREM', KEYS[2], id)
    if redis.call('HEXISTS', key, 'p') == 1 then
        redis.call('HSET', key, 'a', 0, 'r', 0, 'd', now)
        redis.call('HDEL', key, 'why', 'x', 't')
        redis.call('ZADD', KEYS[1], now, id)
        replayed = replayed + 1
    else
        redis.call('DEL', key)
    end
end
if replayed > 0 then
    redis.call('PUBLISH', ARGV[4], now)
end
return {replayed, cutoff, #ids, pending}
