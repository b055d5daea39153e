-- recurring-done: a fired tick is stored in its delay queue: it is no longer pending.
-- KEYS: as recurring-upsert.lua
-- ARGV: the pending members to remove ('<tick>:<start>:<id>')
-- Returns: how many were still pending
-- Work: O(k log p) for k members of p pending ticks
return redis.call('ZREM', KEYS[4], unpack(ARGV))
