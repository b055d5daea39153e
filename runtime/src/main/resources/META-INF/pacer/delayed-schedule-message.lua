-- delayed-schedule-message: stores one message of a delay queue and indexes it by due time (upsert or if-absent), as
-- a function for delayed-schedule.lua (one message) and delayed-schedule-batch.lua (several schedule calls in one).
-- KEYS: the shard's keys in DelayedKeys order: [1] due ZSET (member = message id, score = due epoch millis),
--       [2] in-flight ZSET, [3] dead-letter ZSET, [4] messages HASH (id -> '<encoding><due>:<attempts>:<redeliveries>:
--       <payload>'), [5] claim tokens HASH (id -> token, in flight only), [6] dead-letter reasons HASH (id -> reason)
-- Arguments (ARGV of delayed-schedule.lua): id, payload part (the payload, after '<n>:<trace context>' when the
--       encoding is upper case), encoding ('t' text/JSON, 'b' base64 bytes; 'T', 'B' with a trace context), mode
--       ('upsert': replace an existing message of the same id, keeping its trace context; 'absent': keep an existing
--       one), due time in epoch millis or '' to use Redis TIME + delay, delay in millis, wake-up channel (notified with
--       the due time when the message becomes the queue's earliest)
-- Returns: {1, due millis} when stored, {0, 0} when mode is 'absent' and the id exists
-- Work: O(log n + payload) for n messages in the queue
local function schedule_message(id, payload, encoding_arg, mode, due_arg, delay_arg, channel)
    if mode == 'absent' and redis.call('HEXISTS', KEYS[4], id) == 1 then
        return {0, 0}
    end
    local due
    if due_arg ~= '' then
        due = tonumber(due_arg)
    else
        local t = redis.call('TIME')
        due = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(delay_arg)
    end
    local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
    -- An upsert takes the message out of every state; a running handler's claim token is dropped with it. The
    -- removals run even when no message existed: a message that vanished (evicted, deleted) may have left its id
    -- behind.
    redis.call('ZREM', KEYS[2], id)
    redis.call('ZREM', KEYS[3], id)
    redis.call('HDEL', KEYS[5], id)
    redis.call('HDEL', KEYS[6], id)
    local encoding, value = upserted(id, encoding_arg, payload)
    redis.call('HSET', KEYS[4], id, string.format('%s%d:0:0:', encoding, due) .. value)
    redis.call('ZADD', KEYS[1], due, id)
    if first[2] == nil or due < tonumber(first[2]) then
        redis.call('PUBLISH', channel, due)
    end
    return {1, due}
end
