-- delayed-cancel: removes one message, whatever its state (due, in flight, dead-lettered).
-- KEYS: the shard's keys in DelayedKeys order: [1] due ZSET, [2] in-flight ZSET, [3] dead-letter ZSET,
--       [4] messages HASH, [5] claim tokens HASH, [6] dead-letter reasons HASH (all keyed by message id)
-- ARGV[1]: message id
-- Returns: 1 if a message was removed, 0 if there was none
-- Work: O(log n) for n messages in the queue
local id = ARGV[1]
redis.call('ZREM', KEYS[1], id)
redis.call('ZREM', KEYS[2], id)
redis.call('ZREM', KEYS[3], id)
redis.call('HDEL', KEYS[5], id)
redis.call('HDEL', KEYS[6], id)
return redis.call('HDEL', KEYS[4], id)
