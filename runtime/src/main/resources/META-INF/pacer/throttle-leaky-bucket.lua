-- LEAKY_BUCKET (code 5): GCRA, the algorithm of redis-cell's CL.THROTTLE, with one key.
-- KEYS: <base>:lb, the theoretical arrival time (TAT) in µs
-- Emission interval T = window / limit rounded up to whole µs (the rate never exceeds the limit); tolerance
-- burst * T, so `burst` permits can pass at once. A call is admitted when max(TAT, now) + cost * T - now <= burst * T.
-- State: one integer; TTL = TAT - now, after which an absent key means an empty bucket.
-- Work: O(1).
ALGORITHMS[5] = {
    check = function(base, limit, window, burst, cost)
        local key = base .. ':lb'
        local interval = ceil_div(window, limit)
        local tolerance = burst * interval
        local tat = tonumber(cached_state(key) or remember_state(key, redis.call('GET', key) or '0'))
        if tat < NOW then
            tat = NOW
        end
        local new_tat = tat + cost * interval
        local ahead = new_tat - NOW
        if ahead <= tolerance then
            return 1, floor_div(tolerance - ahead, interval), 0, ahead, tat - NOW, key, new_tat
        end
        local remaining = 0
        if tat - NOW < tolerance then
            remaining = floor_div(tolerance - (tat - NOW), interval)
        end
        return 0, remaining, ahead - tolerance, tat - NOW, tat - NOW, key, new_tat
    end,
    commit = function(base, limit, window, burst, cost, token, key, new_tat)
        committed_state(key, new_tat, new_tat - NOW, write_integer)
    end,
    release = function(base, token, cost)
    end,
    reset = function(base, window)
        redis.call('DEL', base .. ':lb')
    end
}
