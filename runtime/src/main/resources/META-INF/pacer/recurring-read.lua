-- recurring-read: what a firing instance has to do now: the schedules whose next fire time is due, and the fired ticks
-- whose pending lease expired (their instance stopped before storing them in their queue), each with its definition;
-- and when to look again. Read only.
-- KEYS: as recurring-upsert.lua
-- ARGV[1]: the most due schedules, and the most expired ticks, to return
-- Returns: { now millis, { id, next, definition, ... }, { member, definition or nil, ... },
--            earliest next fire time or -1 (none, or all paused), earliest pending lease deadline or -1 }
-- Work: O(log n + ARGV[1]) for n schedules
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local due = {}
local entries = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'WITHSCORES', 'LIMIT', 0, limit)
for i = 1, #entries, 2 do
    due[#due + 1] = entries[i]
    due[#due + 1] = tonumber(entries[i + 1])
    due[#due + 1] = redis.call('HGET', KEYS[1], entries[i])
end
local expired = {}
local members = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', now, 'LIMIT', 0, limit)
for i = 1, #members do
    local id = string.match(members[i], '^%d+:%d+:(.*)$')
    expired[#expired + 1] = members[i]
    expired[#expired + 1] = id and redis.call('HGET', KEYS[1], id) or false
end
local earliestNext = -1
local first = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
if first[2] and first[2] ~= 'inf' then
    earliestNext = tonumber(first[2])
end
local earliestLease = -1
local lease = redis.call('ZRANGE', KEYS[4], 0, 0, 'WITHSCORES')
if lease[2] then
    earliestLease = tonumber(lease[2])
end
return { now, due, expired, earliestNext, earliestLease }
