-- FIXED_WINDOW (code 1): one counter per window aligned to the epoch, the INCRBY + PEXPIRE pattern made atomic.
-- KEYS: <base>:fw:<window index>, derived from the policy's base key
-- State: one integer; TTL = the rest of the window (at least the 20 ms floor of expire_after); a later window uses
-- another key, so a counter that outlives its window is never read again.
-- Work: O(1). Accuracy: exactly `limit` per aligned window; up to 2 * limit across a window boundary.
ALGORITHMS[1] = {
    check = function(base, limit, window, burst, cost)
        local index = floor_div(NOW, window)
        local key = base .. ':fw:' .. index_suffix(index)
        local used = tonumber(cached_state(key) or remember_state(key, redis.call('GET', key) or '0'))
        local rest = (index + 1) * window - NOW
        local unchanged = 0
        if used > 0 then
            unchanged = rest
        end
        if used + cost <= limit then
            return 1, limit - used - cost, 0, rest, unchanged, key, rest, used
        end
        local remaining = limit - used
        if remaining < 0 then
            remaining = 0
        end
        -- The next window starts empty and cost <= limit is checked at build time.
        return 0, remaining, rest, rest, rest, key, rest
    end,
    commit = function(base, limit, window, burst, cost, token, key, rest, used)
        if STATE then
            committed_state(key, used + cost, rest, write_integer)
        else
            redis.call('INCRBY', key, cost)
            expire_after(key, rest)
        end
    end,
    release = function(base, token, cost)
    end,
    reset = function(base, window)
        redis.call('DEL', base .. ':fw:' .. index_suffix(floor_div(NOW, window)))
    end
}
