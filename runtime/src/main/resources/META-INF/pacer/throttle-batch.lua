-- A batch of calls, decided one after the other with the same outcomes as if each had been sent alone (one TIME
-- for all). ARGV[1]: the number of calls; then per call: its number of policies n, mode (0 acquire or 1 peek), token,
-- and the 6 values of each of its n policies; KEYS: the n keys of each call, in order (one hash slot on Redis Cluster).
-- Returns one reply per call: the one-call reply (see throttle-prelude.lua), or an error reply for a call that failed
-- on the data under its keys, which fails that call alone (a failing call writes nothing: its checks read every key
-- before it commits any).
-- A key of FIXED_WINDOW, TOKEN_BUCKET or LEAKY_BUCKET is read at most once and written at most once per batch (STATE,
-- see throttle-prelude.lua), so a hot key costs one read and one write per batch.
-- Work: the sum of the calls' work; the caller bounds the number of calls per batch.
STATE = {}
local calls = tonumber(ARGV[1])
local replies = {}
local k = 1
local a = 2
for c = 1, calls do
    local policies = tonumber(ARGV[a])
    local ok, reply = pcall(decide, tonumber(ARGV[a + 1]), ARGV[a + 2], k, policies, a + 3)
    if ok then
        replies[c] = reply
    elseif type(reply) == 'table' and reply.err then
        replies[c] = reply
    else
        replies[c] = { err = 'ERR ' .. tostring(reply) }
    end
    k = k + policies
    a = a + 3 + 6 * policies
end
flush_state()
return replies
