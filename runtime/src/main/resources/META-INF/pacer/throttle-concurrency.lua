-- CONCURRENCY (code 6): at most `limit` calls in flight, with crash-safe leases.
-- KEYS: <base>:cc, a sorted set of leases { <call token>:<n> = expiry in µs };
--       <base>:ccf, the last fencing token handed out (a string holding an integer)
-- A lease ends when the call completes (mode 2, release) or, if its instance died, at its expiry (now + window);
-- while the call runs its holder extends it (mode 4, renew), which only succeeds for leases that are still live.
-- Fencing token: max(now in µs, last + 1), so tokens keep increasing even after both keys expired.
-- State: O(limit) members and one integer; TTL of both keys = the latest lease expiry.
-- Work: O(log(limit)) to check; a commit removes the expired leases (at most `limit`) and adds `cost` leases;
-- a release removes `cost` leases; a renewal reads, then rewrites, `cost` leases.
ALGORITHMS[6] = {
    check = function(base, limit, window, burst, cost)
        local key = base .. ':cc'
        local live_from = '(' .. index_suffix(NOW)
        local live = redis.call('ZCOUNT', key, live_from, '+inf')
        local latest = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
        local reset = 0
        if latest[2] and tonumber(latest[2]) > NOW then
            reset = tonumber(latest[2]) - NOW
        end
        if live + cost <= limit then
            local taken = reset
            if taken < window then
                taken = window
            end
            return 1, limit - live - cost, 0, taken, reset, key, 0
        end
        -- At the latest when enough of the earliest leases expire (a release can come sooner).
        return log_rejection(key, live_from, live, cost, limit, 0, window, reset)
    end,
    commit = function(base, limit, window, burst, cost, token, key)
        redis.call('ZREMRANGEBYSCORE', key, '-inf', index_suffix(NOW))
        for i = 1, cost do
            redis.call('ZADD', key, NOW + window, token .. ':' .. i)
        end
        local latest = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
        local ttl = tonumber(latest[2]) - NOW
        expire_after(key, ttl)
        local fence_key = base .. ':ccf'
        local fence = NOW
        local last = tonumber(redis.call('GET', fence_key) or '0')
        if fence <= last then
            fence = last + 1
        end
        redis.call('SET', fence_key, index_suffix(fence))
        expire_after(fence_key, ttl)
        return fence
    end,
    -- Whether every lease of the call is still live (renewal validates all policies before writing any).
    held = function(base, token, cost)
        local key = base .. ':cc'
        for i = 1, cost do
            local expiry = redis.call('ZSCORE', key, token .. ':' .. i)
            if not expiry or tonumber(expiry) <= NOW then
                return false
            end
        end
        return true
    end,
    renew = function(base, token, cost, window)
        local key = base .. ':cc'
        for i = 1, cost do
            redis.call('ZADD', key, 'XX', NOW + window, token .. ':' .. i)
        end
        local latest = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
        local ttl = tonumber(latest[2]) - NOW
        expire_after(key, ttl)
        if redis.call('EXISTS', base .. ':ccf') == 1 then
            expire_after(base .. ':ccf', ttl)
        end
    end,
    release = function(base, token, cost)
        local key = base .. ':cc'
        for i = 1, cost do
            redis.call('ZREM', key, token .. ':' .. i)
        end
    end,
    reset = function(base, window)
        redis.call('DEL', base .. ':cc', base .. ':ccf')
    end
}
