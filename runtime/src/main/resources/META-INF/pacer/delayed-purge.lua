-- delayed-purge: deletes dead letters for good.
-- KEYS: the shard's keys in DelayedKeys order: [1] due ZSET (not touched), [2] in-flight ZSET (not touched),
--       [3] dead-letter ZSET (member = message id, score = dead-letter epoch millis), [4] messages HASH,
--       [5] claim tokens HASH (not touched), [6] dead-letter reasons HASH (both keyed by message id)
-- ARGV[1]: one message id, or '' for the oldest dead letters
-- ARGV[2]: most dead letters to delete when ARGV[1] is '' (the caller repeats until fewer come back)
-- Returns: the number of dead letters deleted
-- Work: O(ARGV[2] * log n) for n dead letters
local ids
if ARGV[1] ~= '' then
    ids = dead_letter_ids(ARGV[1])
else
    ids = redis.call('ZRANGE', KEYS[3], 0, tonumber(ARGV[2]) - 1)
end
for _, id in ipairs(ids) do
    redis.call('ZREM', KEYS[3], id)
    redis.call('HDEL', KEYS[4], id)
    redis.call('HDEL', KEYS[6], id)
end
return #ids
