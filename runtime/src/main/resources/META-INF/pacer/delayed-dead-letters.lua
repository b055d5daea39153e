-- delayed-dead-letters: lists the oldest dead letters of a queue.
-- KEYS: the shard's keys in DelayedKeys order: [1] due ZSET (not touched), [2] in-flight ZSET (not touched),
--       [3] dead-letter ZSET (member = message id, score = dead-letter epoch millis),
--       [4] messages HASH (id -> '<encoding><due>:<attempts>:<redeliveries>:<payload>'),
--       [5] claim tokens HASH (not touched), [6] dead-letter reasons HASH (id -> reason)
-- ARGV[1]: most dead letters to return (the caller caps it at 1000)
-- Returns: per dead letter: id, reason, dead-letter millis, attempts, payload, encoding
-- Work: O(log n + ARGV[1] * payload) for n dead letters
local out = {}
local entries = redis.call('ZRANGE', KEYS[3], 0, tonumber(ARGV[1]) - 1, 'WITHSCORES')
for i = 1, #entries, 2 do
    local id = entries[i]
    local e, _, a, _, v, at = read_message(id)
    if e then
        out[#out + 1] = id
        out[#out + 1] = redis.call('HGET', KEYS[6], id) or ''
        out[#out + 1] = tonumber(entries[i + 1])
        out[#out + 1] = tonumber(a)
        out[#out + 1] = string.sub(v, at)
        out[#out + 1] = e
    end
end
return out
