-- SLIDING_LOG (code 3): exact rolling window, one sorted-set entry per admitted permit (score = its time in µs).
-- KEYS: <base>:sl
-- A permit admitted at t counts during [t, t + window). Admitted when live + cost <= limit.
-- State: O(limit) members; TTL = window (every member is expired by then).
-- Work: O(log(limit)) to check; a commit removes the expired entries (at most `limit`, the set never holds more)
-- and adds `cost` entries.
ALGORITHMS[3] = {
    check = function(base, limit, window, burst, cost)
        local key = base .. ':sl'
        local oldest_live = '(' .. index_suffix(NOW - window)
        local live = redis.call('ZCOUNT', key, oldest_live, '+inf')
        local newest = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
        local reset = 0
        if newest[2] and tonumber(newest[2]) + window > NOW then
            reset = tonumber(newest[2]) + window - NOW
        end
        if live + cost <= limit then
            return 1, limit - live - cost, 0, window, reset, key, 0
        end
        -- Wait until enough of the oldest live entries have expired for `cost` permits to fit.
        return log_rejection(key, oldest_live, live, cost, limit, window, window, reset)
    end,
    commit = function(base, limit, window, burst, cost, token, key)
        redis.call('ZREMRANGEBYSCORE', key, '-inf', index_suffix(NOW - window))
        for i = 1, cost do
            redis.call('ZADD', key, NOW, token .. ':' .. i)
        end
        expire_after(key, window)
    end,
    release = function(base, token, cost)
    end,
    reset = function(base, window)
        redis.call('DEL', base .. ':sl')
    end
}
