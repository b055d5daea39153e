-- recurring-delete: deletes a recurring schedule. A tick it fired that is still pending is dropped when its lease
-- expires (recurring-redo.lua finds no definition).
-- KEYS: as recurring-upsert.lua
-- ARGV[1]: id
-- Returns: 1 when the schedule existed, else 0
-- Work: O(log n) for n schedules
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return redis.call('HDEL', KEYS[1], ARGV[1])
