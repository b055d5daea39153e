-- SLIDING_WINDOW (code 2): weighted two-window counter, O(1).
-- KEYS: <base>:sw:<window index> for the current and the previous aligned window
-- Estimate: previous * (window - elapsed) / window + current, compared in integers as
--   previous * (window - elapsed) + (current + cost) * window <= limit * window.
-- Error bound: within one aligned window at most `limit` permits are admitted (exact); over an arbitrary rolling
-- window the previous window's permits are assumed evenly spread, so a rolling window can hold up to (just under)
-- 2 * limit permits in the worst case (all of the previous window's permits at its very end).
-- State: two integers; each counter lives for the rest of its window plus one more window (while it is "previous").
-- Work: O(1).
ALGORITHMS[2] = {
    check = function(base, limit, window, burst, cost)
        local index = floor_div(NOW, window)
        local current_key = base .. ':sw:' .. index_suffix(index)
        local current = tonumber(redis.call('GET', current_key) or '0')
        local previous = tonumber(redis.call('GET', base .. ':sw:' .. index_suffix(index - 1)) or '0')
        local rest = (index + 1) * window - NOW
        local weighted = previous * rest
        local capacity = limit * window
        local ok = weighted + (current + cost) * window <= capacity
        local used = current
        if ok then
            used = current + cost
        end
        local remaining = 0
        if weighted + used * window < capacity then
            remaining = floor_div(capacity - weighted - used * window, window)
        end
        local retry = 0
        if not ok then
            if current + cost <= limit then
                -- The previous window's weight must shrink until it fits.
                retry = rest - floor_div((limit - current - cost) * window, previous)
            else
                -- Only the next window can admit it; there this window's count weighs as the previous one.
                local fits = floor_div((limit - cost) * window, current)
                if fits > window then
                    fits = window
                end
                retry = rest + window - fits
            end
        end
        local reset = 0
        if used > 0 then
            reset = rest + window
        elseif previous > 0 then
            reset = rest
        end
        local unchanged = 0
        if current > 0 then
            unchanged = rest + window
        elseif previous > 0 then
            unchanged = rest
        end
        if ok then
            return 1, remaining, 0, reset, unchanged, current_key, rest
        end
        return 0, remaining, retry, reset, unchanged, current_key, rest
    end,
    commit = function(base, limit, window, burst, cost, token, current_key, rest)
        redis.call('INCRBY', current_key, cost)
        expire_after(current_key, rest + window)
    end,
    release = function(base, token, cost)
    end,
    reset = function(base, window)
        local index = floor_div(NOW, window)
        redis.call('DEL', base .. ':sw:' .. index_suffix(index), base .. ':sw:' .. index_suffix(index - 1))
    end
}
