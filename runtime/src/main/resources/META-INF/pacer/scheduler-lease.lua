-- scheduler-lease: renews or releases the lease a running tick of a PACER scheduler job holds
-- (concurrentExecution = SKIP: no tick of the job starts anywhere while the lease is live).
-- KEYS[1]: the job's HASH (fields: see scheduler-read.lua)
-- ARGV[1]: the lease token of the run
-- ARGV[2]: lease in millis from Redis TIME to renew it, or '0' to release it
-- Returns: 1 if the run still held the lease (renewed or released), 0 otherwise
-- Work: O(1)
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then
    return 0
end
if ARGV[2] == '0' then
    redis.call('HDEL', KEYS[1], 'lease', 'owner')
    return 1
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('HSET', KEYS[1], 'lease', now + tonumber(ARGV[2]))
return 1
