-- delayed-schedule-all: stores many messages of one shard of a delay queue in one call, each an upsert by id with the
-- semantics of delayed-schedule.lua (mode 'upsert', an absolute due time).
-- KEYS[1]: due ZSET (member = message id, score = due epoch millis)
-- KEYS[2]: in-flight ZSET (member = message id, score = lease deadline epoch millis)
-- KEYS[3]: dead-letter ZSET (member = message id, score = dead-letter epoch millis)
-- ARGV[1]: message hash key prefix (the hash of message <id> is ARGV[1] .. <id>; same hash tag as KEYS)
-- ARGV[2]: wake-up channel, notified once with the earliest due time when it becomes the queue's earliest
-- ARGV[3]: n, the number of messages (1 <= n <= 1000)
-- ARGV[4 + 4 * (i - 1) ...]: for message i: id, payload, payload encoding ('t' or 'b'), due time in epoch millis
-- Messages are stored in order, so of two with the same id the later one wins.
-- Validates every argument before the first write: a bad call changes nothing.
-- Returns: n
-- Work: O(n log m) for m messages in the queue; n is bounded by 1000.
local n = tonumber(ARGV[3])
if n == nil or n < 1 or n > 1000 or n ~= math.floor(n) or #ARGV ~= 3 + 4 * n then
    return redis.error_reply('ERR delayed-schedule-all: bad message count ' .. tostring(ARGV[3]))
end
local earliest
for i = 0, n - 1 do
    local at = 4 + 4 * i
    local due = tonumber(ARGV[at + 3])
    if ARGV[at] == '' or due == nil or (ARGV[at + 2] ~= 't' and ARGV[at + 2] ~= 'b') then
        return redis.error_reply('ERR delayed-schedule-all: bad message ' .. (i + 1))
    end
    if earliest == nil or due < earliest then
        earliest = due
    end
end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
-- One ZADD for all (at most 2000 arguments, well within Lua's stack); a later duplicate id's score wins, as in order.
local scored = {}
for i = 0, n - 1 do
    local at = 4 + 4 * i
    local id = ARGV[at]
    local key = ARGV[1] .. id
    -- As in delayed-schedule: an id is in the in-flight or dead-letter set only while its hash exists.
    if redis.call('DEL', key) == 1 then
        redis.call('ZREM', KEYS[2], id)
        redis.call('ZREM', KEYS[3], id)
    end
    redis.call('HSET', key, 'p', ARGV[at + 1], 'e', ARGV[at + 2], 'd', ARGV[at + 3], 'a', 0, 'r', 0)
    scored[2 * i + 1] = ARGV[at + 3]
    scored[2 * i + 2] = id
end
redis.call('ZADD', KEYS[1], unpack(scored))
if first[2] == nil or earliest < tonumber(first[2]) then
    redis.call('PUBLISH', ARGV[2], earliest)
end
return n
