-- delayed-dead-letters: lists the oldest dead letters of a queue.
-- KEYS[1]: dead-letter ZSET (member = message id, score = dead-letter epoch millis)
-- ARGV[1]: message hash key prefix (the hash of message <id> is ARGV[1] .. <id>; same hash tag as KEYS)
-- ARGV[2]: most dead letters to return (the caller caps it at 1000)
-- Returns: per dead letter: id, reason, dead-letter millis, attempts, payload, encoding
-- Work: O(log n + ARGV[2]) for n dead letters
local out = {}
local ids = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1)
for _, id in ipairs(ids) do
    local m = redis.call('HMGET', ARGV[1] .. id, 'why', 'x', 'a', 'p', 'e')
    if m[4] then
        out[#out + 1] = id
        out[#out + 1] = m[1] or ''
        out[#out + 1] = tonumber(m[2] or 0)
        out[#out + 1] = tonumber(m[3] or 0)
        out[#out + 1] = m[4]
        out[#out + 1] = m[5]
    end
end
return out
