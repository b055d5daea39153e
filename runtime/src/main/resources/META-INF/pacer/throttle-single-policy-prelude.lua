-- throttle, single policy: decides acquires of calls each against one rate-limit policy, with the same outcome, the
-- same stored state and the same TTLs as the general throttle script (throttle-prelude.lua and the algorithm's file),
-- but without its driver: no policy loop, no per-call tables, no reply of four values per policy, four arguments per
-- call instead of nine.
--
-- The script is assembled at startup by joining these files verbatim, in this fixed order (never generated):
--   throttle-time.lua (NOW, integer division, expire_after, as in the general script),
--   throttle-single-policy-prelude.lua, one of throttle-single-policy-token-bucket.lua and
--   throttle-single-policy-sliding-log.lua (each defines decide_one), then the entry: throttle-single-policy-one.lua
--   (one call) or throttle-parse-once.lua and throttle-single-policy-batch.lua (several calls queued on one
--   connection) (ThrottleScripts).
-- decide_one(base, a): the call whose base key (as in the general script; the algorithm appends its suffix) is `base`
--   and whose 4 values (see the algorithm's file) are ARGV[a .. a + 3]. Returns a number or a string, never an array
--   (the general script returns an array), from which the caller forms the policy's allowed, remaining, retry-after
--   and reset-after.
-- Time: Redis TIME, integer microseconds. Integers stay exact as in the general script (ThrottleDurations).

-- ARGV numbers: parsed with tonumber for one call; a batch parses each distinct text once per script run
-- (throttle-single-policy-batch.lua). Only a batch defines what it alone needs: one call pays no closure it never runs.
local number = tonumber

-- A batch sets STATE to a table: a token bucket's key is then read at most once per batch and what its calls leave is
-- written once at the batch's end, so a hot key costs one read and one write per batch. Outside a batch STATE is nil
-- and a call writes at once.
local STATE = nil
