-- throttle, single policy, a batch (see throttle-single-policy-prelude.lua): acquires queued on one connection while
-- the group's previous calls were in flight, decided one after the other with the outcomes they would have had one by
-- one (one TIME for all).
-- KEYS: each call's base key, in order; ARGV: each call's 4 values, in order (call i from ARGV[4 * i - 3]).
-- Returns one reply per call: its one-call reply, or an error reply for a call that failed on the data under its key,
-- which fails that call alone (a call writes nothing before its check passed).
-- Work: the sum of the calls' work; the caller bounds the number of calls (RequestBatches.MAX_PARTS).
-- The calls mostly share their policy's values: each distinct text parsed once (throttle-parse-once.lua, joined in
-- front of this file).
number = parse_once
STATE = {}
local replies = {}
for i = 1, #KEYS do
    local ok, reply = pcall(decide_one, KEYS[i], 4 * i - 3)
    if ok or (type(reply) == 'table' and reply.err) then
        replies[i] = reply
    else
        replies[i] = { err = 'ERR ' .. tostring(reply) }
    end
end
-- What the calls left, written once per key: { state, TTL in µs, writer } (see the algorithm's file).
for key, entry in pairs(STATE) do
    if entry.write then
        entry.write(key, entry.stored, entry.micros)
    end
end
return replies
