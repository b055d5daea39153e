-- delayed-message: joined in front of every delay-queue script that reads a stored message (DelayedScripts), so the
-- layout of a stored message has one reader. KEYS[4] is the shard's messages HASH (see DelayedKeys), where message
-- <id> is the field <id> with the value '<encoding><due millis>:<attempts>:<redeliveries>:<payload>'. An upper-case
-- encoding ('T', 'B') has the trace context the message was scheduled in before the payload: '<n>:<n characters>'
-- (StoredPayload in Java); scripts that rewrite a message copy everything after the header, context included.

-- Message `id` as stored: its encoding, due millis, attempts and redeliveries (as text), the stored value, and where
-- the payload starts in it; nothing when the message is gone (evicted, deleted) or unreadable.
local function read_message(id)
    local v = redis.call('HGET', KEYS[4], id)
    if not v then
        return nil
    end
    local e, due, a, r, at = string.match(v, '^(%a)(%-?%d+):(%d+):(%d+):()')
    if not e then
        return nil
    end
    return e, due, a, r, v, at
end

-- What an upsert of message `id` stores, given the new encoding and payload part: the new payload, with the trace
-- context of the message it replaces when that one has one (a rescheduled message stays in its first trace).
-- Work: O(payload)
local function upserted(id, encoding, value)
    local old = redis.call('HGET', KEYS[4], id)
    if not old then
        return encoding, value
    end
    local n, at = string.match(old, '^%u%-?%d+:%d+:%d+:(%d+):()')
    if not n then
        return encoding, value
    end
    local payload = value
    local vn, vat = string.match(value, '^(%d+):()')
    if string.match(encoding, '^%u$') and vn then
        payload = string.sub(value, vat + tonumber(vn))
    end
    return string.upper(encoding), n .. ':' .. string.sub(old, at, at + tonumber(n) - 1) .. payload
end

-- A claim whose message is gone cannot be delivered: drops what is left of it (in-flight entry, token, field).
local function drop_vanished_claim(id)
    redis.call('ZREM', KEYS[2], id)
    redis.call('HDEL', KEYS[5], id)
    redis.call('HDEL', KEYS[4], id)
end

-- Message `id` of a claim presenting claim token `token`, as read_message returns it; nothing when the claim was lost
-- (the message was reclaimed or rescheduled since) or the message is gone (what is left of the claim is dropped).
local function read_claimed_message(id, token)
    if redis.call('HGET', KEYS[5], id) ~= token then
        return nil
    end
    local e, due, a, r, v, at = read_message(id)
    if not e then
        drop_vanished_claim(id)
        return nil
    end
    return e, due, a, r, v, at
end

-- Dead letter `id` as a list of at most one id: empty when `id` is not a dead letter.
local function dead_letter_ids(id)
    if redis.call('ZSCORE', KEYS[3], id) then
        return {id}
    end
    return {}
end
