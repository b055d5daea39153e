-- delayed-schedule-batch: several schedule calls of one shard in one script run, each with the semantics and the
-- arguments of delayed-schedule.lua, one after the other, as if sent one by one (concurrent schedule calls that
-- queued on Pacer's connection while the shard's previous calls were in flight).
-- KEYS: the shard's keys, as delayed-schedule.lua
-- ARGV[1]: n, the number of calls; then the 7 arguments of delayed-schedule.lua for each call
-- Returns: one reply per call: delayed-schedule.lua's, or an error reply that fails that call alone
-- Work: the sum of the calls' work, with Redis TIME and the queue's earliest due time read once per run rather than
--       once per call (see delayed-schedule-message.lua); the caller bounds n (RequestBatches.MAX_PARTS)
local n = tonumber(ARGV[1])
local replies = {}
local run = {}
for i = 0, n - 1 do
    local at = 2 + 7 * i
    local ok, reply = pcall(schedule_message, ARGV[at], ARGV[at + 1], ARGV[at + 2], ARGV[at + 3], ARGV[at + 4],
            ARGV[at + 5], ARGV[at + 6], run)
    if ok then
        replies[i + 1] = reply
    else
        -- A failed call may have stopped anywhere: the next one reads the queue's earliest due time again.
        run.earliest = nil
        if type(reply) == 'table' and reply.err then
            replies[i + 1] = reply
        else
            replies[i + 1] = { err = 'ERR ' .. tostring(reply) }
        end
    end
end
return replies
