-- delayed-size: the number of messages of a queue in each state.
-- KEYS[1]: due ZSET, KEYS[2]: in-flight ZSET, KEYS[3]: dead-letter ZSET
-- ARGV: none
-- Returns: {due count, in-flight count, dead-letter count}
-- Work: O(1)
return {redis.call('ZCARD', KEYS[1]), redis.call('ZCARD', KEYS[2]), redis.call('ZCARD', KEYS[3])}
