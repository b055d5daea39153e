-- server-time: the Redis server clock, the only clock Pacer trusts.
-- KEYS: none
-- ARGV: none
-- Returns: the current Redis time in microseconds since the epoch (integer)
-- Work: O(1)
local t = redis.call('TIME')
return tonumber(t[1]) * 1000000 + tonumber(t[2])
