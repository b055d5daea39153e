-- recurring-upsert: creates or replaces a recurring schedule of a delay queue, by id. A schedule whose timing (its
-- spec) is unchanged keeps its next fire time, so any number of instances upserting the same schedule at once leave one
-- schedule on its grid as it was; a new schedule, or a changed timing, starts at ARGV[4]. A paused schedule stays
-- paused.
-- KEYS (every recurring-*.lua script, in this order): [1] definitions HASH (id -> '<spec>\n<definition>'), [2] due ZSET
--       (id -> next fire time in epoch millis; '+inf' while paused), [3] paused HASH (id -> next fire time while
--       paused), [4] pending ZSET (fired ticks not yet stored in their queue: '<tick>:<start>:<id>' -> lease deadline)
-- ARGV[1]: id, ARGV[2]: the schedule's spec, ARGV[3]: its definition ('<ARGV[2]>\n...'),
-- ARGV[4]: first fire time for a new timing (epoch millis, computed from Redis time), ARGV[5]: wake-up channel,
--          notified with the fire time when the schedule becomes the earliest
-- Returns: { 1 when the next fire time is ARGV[4] (new or changed timing) else 0, next fire time, 1 when paused else 0 }
-- Work: O(log n) for n schedules
local old = redis.call('HGET', KEYS[1], ARGV[1])
local score = redis.call('ZSCORE', KEYS[2], ARGV[1])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
local prefix = ARGV[2] .. '\n'
if score == 'inf' then
    local pausedNext = redis.call('HGET', KEYS[3], ARGV[1])
    if pausedNext and old and string.sub(old, 1, #prefix) == prefix then
        return { 0, tonumber(pausedNext), 1 }
    end
    redis.call('HSET', KEYS[3], ARGV[1], ARGV[4])
    return { 1, tonumber(ARGV[4]), 1 }
end
if score and old and string.sub(old, 1, #prefix) == prefix then
    return { 0, tonumber(score), 0 }
end
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
local first = redis.call('ZRANGE', KEYS[2], 0, 0)
if first[1] == ARGV[1] then
    redis.call('PUBLISH', ARGV[5], ARGV[4])
end
return { 1, tonumber(ARGV[4]), 0 }
