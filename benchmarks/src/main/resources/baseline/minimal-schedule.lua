-- The physical-limit baseline of the schedule benchmark: the least a delay queue can do in Redis to store a message
-- due a delay after Redis TIME: its payload in a hash and its id in a sorted set scored by due time. No wake-up
-- notification, no modes, no validation. Not used by Pacer.
-- KEYS[1]: the due sorted set; KEYS[2]: the messages hash
-- ARGV[1]: message id; ARGV[2]: payload; ARGV[3]: delay in milliseconds
-- Returns the due time in epoch milliseconds. Work: O(log n) for n messages waiting.
local clock = redis.call('TIME')
local due = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000) + tonumber(ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[1], due, ARGV[1])
return due
