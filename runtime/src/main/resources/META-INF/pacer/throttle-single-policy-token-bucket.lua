-- TOKEN_BUCKET, single policy (see throttle-single-policy-prelude.lua; the logic of throttle-token-bucket.lua).
-- The state is <base>:tb, a hash { l = level, t = time of the level in µs, w = the window the level is counted in }
-- Values (ARGV[a ..]): limit; window in µs; burst; cost
-- Returns the level in units of 1/window token: after the cost was taken when admitted (>= 0), or -1 - the level as
--   it is when rejected (nothing written). The caller derives remaining = level / window (rounded down), retry-after =
--   (cost * window - level) / limit and reset-after = (burst * window - level) / limit µs (rounded up).
-- Work: O(1): HMGET, then HSET and PEXPIRE when admitted (in a batch, once per key).

local function write_bucket(key, state, micros)
    redis.call('HSET', key, 'l', string.format('%d', state[1]), 't', string.format('%d', state[2]), 'w',
            string.format('%d', state[3]))
    expire_after(key, micros)
end

local function decide_one(base, a)
    local key = base .. ':tb'
    local limit, window = number(ARGV[a]), number(ARGV[a + 1])
    local capacity = number(ARGV[a + 2]) * window
    local need = number(ARGV[a + 3]) * window
    local level = capacity
    local since = NOW
    local entry = STATE and STATE[key]
    local stored
    if entry then
        stored = entry.stored
    else
        stored = redis.call('HMGET', key, 'l', 't', 'w')
    end
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
        if STATE and not entry then
            STATE[key] = { stored = stored }
        end
        return -1 - level
    end
    local after = level - need
    local micros = ceil_div(capacity - after, limit)
    if STATE then
        STATE[key] = { stored = { after, since, window }, micros = micros, write = write_bucket }
    else
        redis.call('HSET', key, 'l', string.format('%d', after), 't', string.format('%d', since), 'w', ARGV[a + 1])
        expire_after(key, micros)
    end
    return after
end
