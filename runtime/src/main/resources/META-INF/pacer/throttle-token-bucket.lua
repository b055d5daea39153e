-- TOKEN_BUCKET (code 4): capacity `burst`, continuous refill of `limit` tokens per `window`.
-- KEYS: <base>:tb, a hash { l = level, t = time of the level in µs, w = the window the level is counted in }
-- The level is kept in units of 1/window token, so the refill (limit units per µs) is exact integer arithmetic:
--   capacity = burst * window, a call needs cost * window, elapsed µs add elapsed * limit.
-- A key whose limits changed (its own limit, a runtime override) keeps its tokens: whole tokens when the window
-- changed, clamped to the new capacity; the time since refills at the new rate.
-- An absent key means a full bucket. TTL = the time until the bucket is full again.
-- Work: O(1).
local function write_bucket(key, state)
    redis.call('HSET', key, 'l', index_suffix(state[1]), 't', index_suffix(state[2]), 'w', index_suffix(state[3]))
end

ALGORITHMS[4] = {
    check = function(base, limit, window, burst, cost)
        local key = base .. ':tb'
        local capacity = burst * window
        local need = cost * window
        local level = capacity
        local since = NOW
        local stored = cached_state(key) or remember_state(key, redis.call('HMGET', key, 'l', 't', 'w'))
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
        local ok = level >= need
        local after = level
        if ok then
            after = level - need
        end
        local retry = 0
        if not ok then
            retry = ceil_div(need - level, limit)
        end
        return (ok and 1 or 0), floor_div(after, window), retry, ceil_div(capacity - after, limit),
                ceil_div(capacity - level, limit), key, after, since
    end,
    commit = function(base, limit, window, burst, cost, token, key, after, since)
        committed_state(key, { after, since, window }, ceil_div(burst * window - after, limit), write_bucket)
    end,
    release = function(base, token, cost)
    end,
    reset = function(base, window)
        redis.call('DEL', base .. ':tb')
    end
}
