-- scheduler-rerun: claims, for the calling instance, a run of a PACER scheduler job whose lease expired (its instance
-- died, or lost Redis for longer than the lease): the expired run is replaced by the caller's in one compare-and-set,
-- so of all the instances that saw it expire exactly one runs the tick again.
-- KEYS[1]: the job's HASH, KEYS[2]: the job's runs ZSET (both: see scheduler-read.lua)
-- ARGV[1]: the expired run's member, as read
-- ARGV[2]: the caller's member for the tick's next start ('<tick>:<start>:<token>'), or '' to drop the run: its tick
--          has been started as often as it may be
-- ARGV[3]: lease in millis, counted from Redis TIME
-- ARGV[4]: time to live of both keys in millis
-- Returns: { outcome, now millis }: outcome 1 = claimed (run the tick again), 3 = dropped, 0 = nothing to do: the run
--          ended, renewed its lease, was taken by another instance, or the job is paused
-- Work: O(log runs in flight)
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if redis.call('HGET', KEYS[1], 'paused') == '1' then
    return { 0, now }
end
local deadline = redis.call('ZSCORE', KEYS[2], ARGV[1])
if not deadline or tonumber(deadline) > now then
    return { 0, now }
end
redis.call('ZREM', KEYS[2], ARGV[1])
if ARGV[2] == '' then
    return { 3, now }
end
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[3]), ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return { 1, now }
