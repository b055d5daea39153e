-- delayed-schedule-all: stores many messages of one shard of a delay queue in one call, each an upsert by id with the
-- semantics of delayed-schedule.lua (mode 'upsert', an absolute due time; a replaced message's trace context is kept).
-- KEYS: the shard's keys in DelayedKeys order: [1] due ZSET (member = message id, score = due epoch millis),
--       [2] in-flight ZSET, [3] dead-letter ZSET, [4] messages HASH (id -> '<encoding><due>:<attempts>:<redeliveries>:
--       <payload>'), [5] claim tokens HASH (id -> token, in flight only), [6] dead-letter reasons HASH (id -> reason)
-- ARGV[1]: wake-up channel, notified once with the earliest due time when it becomes the queue's earliest
-- ARGV[2]: n, the number of messages (1 <= n <= 1000)
-- ARGV[3 + 4 * (i - 1) ...]: for message i: id, payload part, payload encoding ('t' or 'b'; 'T' or 'B' when a trace
--          context is in front of the payload, see delayed-schedule.lua), due time in epoch millis
-- Messages are stored in order, so of two with the same id the later one wins.
-- Validates every argument before the first write: a bad call changes nothing.
-- Returns: n
-- Work: O(n (log m + payload)) for m messages in the queue; n is bounded by 1000.
local n = tonumber(ARGV[2])
if n == nil or n < 1 or n > 1000 or n ~= math.floor(n) or #ARGV ~= 2 + 4 * n then
    return redis.error_reply('ERR delayed-schedule-all: bad message count ' .. tostring(ARGV[2]))
end
local earliest
for i = 0, n - 1 do
    local at = 3 + 4 * i
    local due = tonumber(ARGV[at + 3])
    if ARGV[at] == '' or due == nil or not string.match(ARGV[at + 2], '^[tbTB]$') then
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
    local at = 3 + 4 * i
    local id = ARGV[at]
    local encoding, payload = upserted(id, ARGV[at + 2], ARGV[at + 1])
    local value = string.format('%s%d:0:0:', encoding, tonumber(ARGV[at + 3])) .. payload
    -- As in delayed-schedule: an id is in flight or dead-lettered only while its message exists (HSET answers 0
    -- when it replaced one).
    if redis.call('HSET', KEYS[4], id, value) == 0 then
        redis.call('ZREM', KEYS[2], id)
        redis.call('ZREM', KEYS[3], id)
        redis.call('HDEL', KEYS[5], id)
        redis.call('HDEL', KEYS[6], id)
    end
    scored[2 * i + 1] = ARGV[at + 3]
    scored[2 * i + 2] = id
end
redis.call('ZADD', KEYS[1], unpack(scored))
if first[2] == nil or earliest < tonumber(first[2]) then
    redis.call('PUBLISH', ARGV[1], earliest)
end
return n
