-- scheduler-claim: claims one tick of a PACER scheduler job for the calling instance, or moves the job's next fire time
-- on (initializing it, or past ticks missed beyond the overdue grace period): a compare-and-set on the next fire time,
-- so of all the instances that read the same state exactly one claim succeeds. A claimed tick gets its run's lease in
-- the same step, so from the claim on the tick is either running or, once the lease expires, run again
-- (scheduler-rerun.lua).
-- KEYS[1]: the job's HASH, KEYS[2]: the job's runs ZSET (both: see scheduler-read.lua)
-- ARGV[1]: the next fire time the caller read ('' when it read none for ARGV[2]: the job is initialized)
-- ARGV[2]: the schedule (spec) the caller computed its fire times with
-- ARGV[3]: the new next fire time, epoch millis
-- ARGV[4]: scheduled fire time of the tick to run, epoch millis, or '' to run none
-- ARGV[5]: '1' when the job skips a tick while any run is in flight (concurrentExecution = SKIP), else '0'
-- ARGV[6]: lease in millis, counted from Redis TIME
-- ARGV[7]: the run's member in KEYS[2] ('<ARGV[4]>:1:<token>')
-- ARGV[8]: time to live of both keys in millis
-- ARGV[9]: the latest Redis time the tick ARGV[4] may start at (its overdue grace period), or '' for no bound; a claim
--          made later loses (the caller reads, and skips the tick)
-- Returns: { outcome, now millis, the run whose lease ends first or '', its lease deadline or '' }: outcome 1 =
--          claimed (run ARGV[4] if set), 2 = the tick is skipped because a run is in flight, live or waiting to be run
--          again (ARGV[5] = '1'), 0 = another instance moved the job first (or it is paused, or the tick is not due
--          yet, or past ARGV[9]): run nothing. After outcome 1 or 2 the job's state is known without a read
--          (scheduler-read.lua): its next fire time is ARGV[3], its spec ARGV[2], and, when ARGV[4] is set, it is not
--          paused.
-- Work: O(log runs in flight)
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local s = redis.call('HMGET', KEYS[1], 'next', 'spec', 'paused')
if ARGV[1] == '' then
    if s[1] and s[2] == ARGV[2] then
        return { 0, now }
    end
elseif s[1] ~= ARGV[1] or s[2] ~= ARGV[2] then
    return { 0, now }
end
if ARGV[4] ~= '' then
    if s[3] == '1' or tonumber(ARGV[4]) > now or (ARGV[9] ~= '' and now > tonumber(ARGV[9])) then
        return { 0, now }
    end
    if ARGV[5] == '1' and redis.call('ZCARD', KEYS[2]) > 0 then
        redis.call('HSET', KEYS[1], 'next', ARGV[3], 'spec', ARGV[2])
        redis.call('PEXPIRE', KEYS[1], ARGV[8])
        local busy = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
        return { 2, now, busy[1] or '', busy[2] or '' }
    end
end
redis.call('HSET', KEYS[1], 'next', ARGV[3], 'spec', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[8])
if ARGV[4] ~= '' then
    redis.call('HSET', KEYS[1], 'last', ARGV[4])
    redis.call('ZADD', KEYS[2], now + tonumber(ARGV[6]), ARGV[7])
    redis.call('PEXPIRE', KEYS[2], ARGV[8])
end
local run = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
return { 1, now, run[1] or '', run[2] or '' }
