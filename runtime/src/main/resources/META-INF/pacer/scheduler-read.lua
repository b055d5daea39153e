-- scheduler-read: the state of one PACER scheduler job, read by every instance before it claims a tick.
-- KEYS[1]: the job's HASH: next (scheduled fire time of the next tick, epoch millis), spec (the schedule that computed
--          it), paused ('1' while paused on every instance), lease (deadline of the running tick's lease, epoch millis,
--          concurrentExecution = SKIP only), owner (the lease's token), last (scheduled fire time of the last tick run)
-- ARGV[1]: time to live of the HASH in millis, renewed by every read while an instance schedules the job
-- Returns: { now millis (Redis TIME), next or '', spec or '', paused or '', lease or '', last or '' }
-- Work: O(1)
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local s = redis.call('HMGET', KEYS[1], 'next', 'spec', 'paused', 'lease', 'last')
if redis.call('PEXPIRE', KEYS[1], ARGV[1]) == 0 then
    return { now, '', '', '', '', '' }
end
return { now, s[1] or '', s[2] or '', s[3] or '', s[4] or '', s[5] or '' }
