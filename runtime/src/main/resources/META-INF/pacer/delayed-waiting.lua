-- delayed-waiting: lists the waiting messages of a queue that are due first (read only, for inspection).
-- KEYS[1]: due ZSET (member = message id, score = due epoch millis)
-- ARGV[1]: message hash key prefix (the hash of message <id> is ARGV[1] .. <id>; same hash tag as KEYS)
-- ARGV[2]: most messages to return (the caller caps it at 1000)
-- ARGV[3]: most payload bytes to return per message (longer payloads are cut)
-- Returns: per message: id, due millis, attempts, redeliveries, payload (cut to ARGV[3] bytes), encoding,
--          full payload length; an entry whose hash is gone is skipped
-- Work: O(log n + ARGV[2]) for n waiting messages
local out = {}
local entries = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1, 'WITHSCORES')
local cut = tonumber(ARGV[3])
for i = 1, #entries, 2 do
    local id = entries[i]
    local m = redis.call('HMGET', ARGV[1] .. id, 'p', 'e', 'a', 'r')
    if m[1] then
        out[#out + 1] = id
        out[#out + 1] = tonumber(entries[i + 1])
        out[#out + 1] = tonumber(m[3] or 0)
        out[#out + 1] = tonumber(m[4] or 0)
        out[#out + 1] = string.sub(m[1], 1, cut)
        out[#out + 1] = m[2]
        out[#out + 1] = #m[1]
    end
end
return out
