-- delayed-waiting: lists the waiting messages of a queue that are due first (read only, for inspection).
-- KEYS: the shard's keys in DelayedKeys order: [1] due ZSET (member = message id, score = due epoch millis),
--       [2] in-flight ZSET and [3] dead-letter ZSET (not touched), [4] messages HASH (id -> '<encoding><due>:
--       <attempts>:<redeliveries>:<payload>'), [5] claim tokens HASH and [6] dead-letter reasons HASH (not touched)
-- ARGV[1]: most messages to return (the caller caps it at 1000)
-- ARGV[2]: most payload bytes to return per message (longer payloads are cut)
-- Returns: per message: id, due millis, attempts, redeliveries, payload (cut to ARGV[2] bytes), encoding,
--          full payload length; an entry whose message is gone is skipped
-- Work: O(log n + ARGV[1] * payload) for n waiting messages
local out = {}
local entries = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1, 'WITHSCORES')
local cut = tonumber(ARGV[2])
for i = 1, #entries, 2 do
    local id = entries[i]
    local e, _, a, r, v, at = read_message(id)
    if e then
        out[#out + 1] = id
        out[#out + 1] = tonumber(entries[i + 1])
        out[#out + 1] = tonumber(a)
        out[#out + 1] = tonumber(r)
        out[#out + 1] = string.sub(v, at, at + cut - 1)
        out[#out + 1] = e
        out[#out + 1] = #v - at + 1
    end
end
return out
