-- delayed-cancel: removes one message, whatever its state (due, in flight, dead-lettered).
-- KEYS[1]: due ZSET, KEYS[2]: in-flight ZSET, KEYS[3]: dead-letter ZSET
-- ARGV[1]: message hash key prefix (the hash of message <id> is ARGV[1] .. <id>; same hash tag as KEYS)
-- ARGV[2]: message id
-- Returns: 1 if a message was removed, 0 if there was none
-- Work: O(log n) for n messages in the queue
redis.call('ZREM', KEYS[1], ARGV[2])
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('ZREM', KEYS[3], ARGV[2])
return redis.call('DEL', ARGV[1] .. ARGV[2])
