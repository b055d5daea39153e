-- TOKEN_BUCKET, single policy (see throttle-single-policy-prelude.lua; the logic of throttle-token-bucket.lua).
-- KEYS[1]: <base>; the state is <base>:tb, a hash { l = level, t = time of the level in µs, w = the window the level
--   is counted in }
-- ARGV[1]: limit; ARGV[2]: window in µs; ARGV[3]: burst; ARGV[4]: cost
-- Returns the level in units of 1/window token: after the cost was taken when admitted (>= 0), or -1 - the level as
--   it is when rejected (nothing written). The caller derives remaining = level / window (rounded down), retry-after =
--   (cost * window - level) / limit and reset-after = (burst * window - level) / limit µs (rounded up).
-- Work: O(1): HMGET, then HSET and PEXPIRE when admitted.
local key = KEYS[1] .. ':tb'
local limit, window = tonumber(ARGV[1]), tonumber(ARGV[2])
local capacity = tonumber(ARGV[3]) * window
local need = tonumber(ARGV[4]) * window
local level = capacity
local since = NOW
local stored = redis.call('HMGET', key, 'l', 't', 'w')
if stored[1] and stored[2] then
    level = tonumber(stored[1])
    since = tonumber(stored[2])
    if stored[3] and tonumber(stored[3]) ~= window then
        level = floor_div(level, tonumber(stored[3])) * window
    end
    if level > capacity then
        level = capacity
    end
    local elapsed = NOW - since
    if elapsed > 0 then
        since = NOW
        if elapsed >= ceil_div(capacity - level, limit) then
            level = capacity
        else
            level = level + elapsed * limit
        end
    end
end
if level < need then
    return -1 - level
end
local after = level - need
redis.call('HSET', key, 'l', string.format('%d', after), 't', string.format('%d', since), 'w', ARGV[2])
expire_after(key, ceil_div(capacity - after, limit))
return after
