-- recurring-pause: pauses or resumes a recurring schedule. A paused schedule keeps its next fire time aside and fires
-- nothing; once resumed, its missed ticks are handled as any missed tick (those within its overdue grace period fire).
-- KEYS: as recurring-upsert.lua
-- ARGV[1]: id, ARGV[2]: '1' to pause, '0' to resume, ARGV[3]: wake-up channel (see recurring-upsert.lua)
-- Returns: 1, or 0 when there is no schedule ARGV[1]
-- Work: O(log n) for n schedules
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then
    return 0
end
local score = redis.call('ZSCORE', KEYS[2], ARGV[1])
if ARGV[2] == '1' then
    if score and score ~= 'inf' then
        redis.call('HSET', KEYS[3], ARGV[1], score)
        redis.call('ZADD', KEYS[2], '+inf', ARGV[1])
    end
    return 1
end
if score == 'inf' then
    local next = redis.call('HGET', KEYS[3], ARGV[1])
    redis.call('HDEL', KEYS[3], ARGV[1])
    if next then
        redis.call('ZADD', KEYS[2], next, ARGV[1])
        local first = redis.call('ZRANGE', KEYS[2], 0, 0)
        if first[1] == ARGV[1] then
            redis.call('PUBLISH', ARGV[3], next)
        end
    end
end
return 1
