-- SLIDING_LOG, single policy (see throttle-single-policy-prelude.lua; the logic of throttle-sliding-log.lua).
-- The state is <base>:sl, a sorted set of one entry per admitted permit (score = its time in µs)
-- Values (ARGV[a ..]): limit; window in µs; cost; a token unique to the call (names the entries)
-- Returns, when admitted, the number of live entries before the call (remaining = limit - live - cost, reset-after =
--   the window); when rejected (nothing written), the string "<live> <retry-after µs> <reset-after µs>".
-- Work: O(log(limit)) to check; an admitted call removes the expired entries (at most `limit`) and adds `cost`.

local function decide_one(base, a)
    local key = base .. ':sl'
    local limit, window, cost = number(ARGV[a]), number(ARGV[a + 1]), number(ARGV[a + 2])
    local oldest_live = '(' .. string.format('%d', NOW - window)
    local live = redis.call('ZCOUNT', key, oldest_live, '+inf')
    if live + cost <= limit then
        redis.call('ZREMRANGEBYSCORE', key, '-inf', string.format('%d', NOW - window))
        local token = ARGV[a + 3]
        for i = 1, cost do
            redis.call('ZADD', key, NOW, token .. ':' .. i)
        end
        expire_after(key, window)
        return live
    end
    -- Rejected: retry when the entry whose expiry frees room for `cost` permits expires; reset when the newest expires.
    local newest = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
    local reset = 0
    if newest[2] and tonumber(newest[2]) + window > NOW then
        reset = tonumber(newest[2]) + window - NOW
    end
    local entry = redis.call('ZRANGEBYSCORE', key, oldest_live, '+inf', 'WITHSCORES', 'LIMIT', live + cost - limit - 1,
            1)
    local retry = window
    if entry[2] then
        retry = tonumber(entry[2]) + window - NOW
    end
    return string.format('%d %d %d', live, retry, reset)
end
