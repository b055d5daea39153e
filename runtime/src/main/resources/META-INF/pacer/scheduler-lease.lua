-- scheduler-lease: renews or releases the lease of a run of a PACER scheduler job. While the lease is live no other
-- instance runs the tick again, and with concurrentExecution = SKIP no tick of the job starts; a run that ends, well or
-- with a failure, releases it.
-- KEYS[1]: the job's runs ZSET (see scheduler-read.lua)
-- ARGV[1]: the run's member
-- ARGV[2]: lease in millis from Redis TIME to renew it, or '0' to release it
-- Returns: 1 if the run still held its lease (renewed or released), 0 if it lost it (it expired and another instance
--          took the tick over, or the job's state expired)
-- Work: O(log runs in flight)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
    return 0
end
if ARGV[2] == '0' then
    redis.call('ZREM', KEYS[1], ARGV[1])
    return 1
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[2]), ARGV[1])
return 1
