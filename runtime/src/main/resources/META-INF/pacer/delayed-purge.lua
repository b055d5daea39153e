-- delayed-purge: deletes dead letters for good.
-- KEYS[1]: dead-letter ZSET (member = message id, score = dead-letter epoch millis)
-- ARGV[1]: message hash key prefix (the hash of message <id> is ARGV[1] .. <id>; same hash tag as KEYS)
-- ARGV[2]: one message id, or '' for the oldest dead letters
-- ARGV[3]: most dead letters to delete when ARGV[2] is '' (the caller repeats until fewer come back)
-- Returns: the number of dead letters deleted
-- Work: O(ARGV[3] * log n) for n dead letters
local ids
if ARGV[2] ~= '' then
    ids = {}
    if redis.call('ZSCORE', KEYS[1], ARGV[2]) then
        ids[1] = ARGV[2]
    end
else
    ids = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[3]) - 1)
end
for _, id in ipairs(ids) do
    redis.call('ZREM', KEYS[1], id)
    redis.call('DEL', ARGV[1] .. id)
end
return #ids
