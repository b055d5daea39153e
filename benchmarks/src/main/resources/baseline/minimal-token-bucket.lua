-- The physical-limit baseline of the throttle benchmarks: the least a correct distributed token bucket can do in
-- Redis, with no stacking, no key validation and no modes. Not used by Pacer.
-- KEYS[1]: the bucket, a hash { v = tokens, t = time of v in µs }
-- ARGV[1]: capacity (tokens); ARGV[2]: refill in tokens per second
-- Returns 1 when one token was taken, else 0. Work: O(1). Time: Redis TIME.
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local capacity = tonumber(ARGV[1])
local per_micro = tonumber(ARGV[2]) / 1000000
local stored = redis.call('HMGET', KEYS[1], 'v', 't')
local tokens = tonumber(stored[1]) or capacity
local since = tonumber(stored[2]) or now
tokens = math.min(capacity, tokens + (now - since) * per_micro)
local taken = 0
if tokens >= 1 then
    tokens = tokens - 1
    taken = 1
end
redis.call('HSET', KEYS[1], 'v', tostring(tokens), 't', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) / per_micro / 1000) + 1)
return taken
