-- test-deliver-all: makes the waiting messages of a queue shard that are due later due now (the test kit's
-- deliverAllNow; deliver-now for many messages). Joined after delayed-message.lua, the reader of the stored layout.
-- KEYS: the shard's keys in DelayedKeys order: [1] due ZSET (member = message id, score = due epoch millis),
--       [2] in-flight ZSET and [3] dead-letter ZSET (not touched), [4] messages HASH (id -> '<encoding><due>:
--       <attempts>:<redeliveries>:<payload>'), [5] claim tokens HASH and [6] dead-letter reasons HASH (not touched)
-- ARGV[1]: most messages to make due in this call (the caller repeats until fewer come back)
-- ARGV[2]: wake-up channel, notified with the new due time when a message was made due
-- Returns: {messages made due, entries looked at} (fewer entries than ARGV[1]: none due later is left)
-- Work: O(ARGV[1] * (log n + payload)) for n waiting messages
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf', 'LIMIT', 0, tonumber(ARGV[1]))
local count = 0
for _, id in ipairs(ids) do
    local e, _, a, r, v, at = read_message(id)
    if e then
        redis.call('HSET', KEYS[4], id, string.format('%s%d:%s:%s:', e, now, a, r) .. string.sub(v, at))
        redis.call('ZADD', KEYS[1], now, id)
        count = count + 1
    else
        -- An index entry whose message is gone cannot be delivered: drop it, as deliver-now does.
        redis.call('ZREM', KEYS[1], id)
    end
end
if count > 0 then
    redis.call('PUBLISH', ARGV[2], now)
end
return {count, #ids}
