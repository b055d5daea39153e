-- scheduler-read: the state of one PACER scheduler job, read by every instance before it claims a tick.
-- KEYS[1]: the job's HASH: next (scheduled fire time of the next tick, epoch millis), spec (the schedule that computed
--          it), paused ('1' while paused on every instance), last (scheduled fire time of the last tick claimed)
-- KEYS[2]: the job's runs, a ZSET in the same slot: one member per run in flight, '<tick>:<start>:<token>' (the tick's
--          scheduled fire time, which start of the tick it is, from 1, and the running instance's token), scored by
--          the deadline of its lease (epoch millis, Redis time); see scheduler-claim.lua and scheduler-lease.lua
-- ARGV[1]: time to live of both keys in millis, renewed by every read while an instance schedules the job
-- Returns: { now millis (Redis TIME), next or '', spec or '', paused or '', last or '', the run whose lease ends first
--          or '', its lease deadline or '' }
-- Work: O(log runs in flight)
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local s = redis.call('HMGET', KEYS[1], 'next', 'spec', 'paused', 'last')
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
local run = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
return { now, s[1] or '', s[2] or '', s[3] or '', s[4] or '', run[1] or '', run[2] or '' }
