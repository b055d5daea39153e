-- scheduler-pause: pauses or resumes a PACER scheduler job on every instance.
-- KEYS[1]: the job's HASH (fields: see scheduler-read.lua)
-- ARGV[1]: '1' to pause, '0' to resume
-- ARGV[2]: time to live of the HASH in millis
-- Returns: 1
-- Work: O(1)
if ARGV[1] == '1' then
    redis.call('HSET', KEYS[1], 'paused', '1')
else
    redis.call('HDEL', KEYS[1], 'paused')
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
