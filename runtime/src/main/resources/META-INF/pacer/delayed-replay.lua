-- delayed-replay: moves dead letters back to the queue, due now, with attempts reset.
-- KEYS: the shard's keys in DelayedKeys order: [1] due ZSET (member = message id, score = due epoch millis),
--       [2] in-flight ZSET (not touched), [3] dead-letter ZSET (score = dead-letter epoch millis),
--       [4] messages HASH (id -> '<encoding><due>:<attempts>:<redeliveries>:<payload>'),
--       [5] claim tokens HASH (id -> token), [6] dead-letter reasons HASH (id -> reason)
-- ARGV[1]: one message id, or '' for the oldest dead letters
-- ARGV[2]: most dead letters to replay when ARGV[1] is '' (the caller repeats until fewer come back)
-- ARGV[3]: wake-up channel, notified once when something was replayed
-- ARGV[4]: when ARGV[1] is '': only dead letters dead-lettered at or before these epoch millis ('' = Redis TIME now),
--          so a replay that repeats ends even while replayed messages are dead-lettered again
-- Returns: {messages replayed, the cut-off used in millis, dead letters visited (replayed or removed), dead letters
--          at or before the cut-off before this call (the caller's bound on repeating)}. A dead letter whose message
--          is gone (evicted or deleted) is removed from the dead letters and not replayed: a message is never created
--          without payload.
-- Work: O((ARGV[2] + 1) * (log n + payload)) for n messages in the queue
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local cutoff = now
if ARGV[4] and ARGV[4] ~= '' then
    cutoff = tonumber(ARGV[4])
end
local pending = 0
local ids
if ARGV[1] ~= '' then
    ids = dead_letter_ids(ARGV[1])
else
    pending = redis.call('ZCOUNT', KEYS[3], '-inf', cutoff)
    ids = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', cutoff, 'LIMIT', 0, tonumber(ARGV[2]))
end
local replayed = 0
for _, id in ipairs(ids) do
    redis.call('ZREM', KEYS[3], id)
    redis.call('HDEL', KEYS[5], id)
    redis.call('HDEL', KEYS[6], id)
    local e, _, _, _, v, at = read_message(id)
    if e then
        redis.call('HSET', KEYS[4], id, string.format('%s%d:0:0:', e, now) .. string.sub(v, at))
        redis.call('ZADD', KEYS[1], now, id)
        replayed = replayed + 1
    else
        redis.call('HDEL', KEYS[4], id)
    end
end
if replayed > 0 then
    redis.call('PUBLISH', ARGV[3], now)
end
return {replayed, cutoff, #ids, pending}
