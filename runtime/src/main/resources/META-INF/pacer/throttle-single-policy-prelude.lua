-- throttle, single policy: decides an acquire of one call against one rate-limit policy, with the same outcome, the
-- same stored state and the same TTLs as the general throttle script (throttle-prelude.lua and the algorithm's file),
-- but without its driver: no policy loop, no per-call tables, no reply of four values per policy. A decision alone on
-- its connection pays only this; decisions queued behind others still go in the general batch script.
--
-- The script is assembled at startup by joining these files verbatim, in this fixed order (never generated):
--   throttle-single-policy-prelude.lua, then one of throttle-single-policy-token-bucket.lua and
--   throttle-single-policy-sliding-log.lua (SinglePolicyScript).
-- KEYS[1]: the policy's base key, as in the general script (throttle-prelude.lua); the algorithm appends its suffix.
-- ARGV: the algorithm's values (see its file). Returns: a number or a string, never an array (the general script
--       returns an array), from which the caller forms the policy's allowed, remaining, retry-after and reset-after.
-- Time: Redis TIME, integer microseconds. Integers stay exact as in the general script (ThrottleDurations).

if redis.replicate_commands then
    -- Redis < 5 must replicate effects, not the script, since the script reads TIME before writing.
    redis.replicate_commands()
end

local clock = redis.call('TIME')
local NOW = tonumber(clock[1]) * 1000000 + tonumber(clock[2])

local math_floor = math.floor

-- Integer division rounded down / up, exact for non-negative integers below 2^53 (as in throttle-prelude.lua).
local function floor_div(a, b)
    local q = math_floor(a / b)
    if q * b > a then
        q = q - 1
    elseif (q + 1) * b <= a then
        q = q + 1
    end
    return q
end

local function ceil_div(a, b)
    local q = floor_div(a, b)
    if q * b < a then
        q = q + 1
    end
    return q
end

-- A TTL of at least `micros`, as throttle-prelude.lua sets it (whole milliseconds plus one, at least 20 ms).
local function expire_after(key, micros)
    local millis = ceil_div(micros, 1000) + 1
    if millis < 20 then
        millis = 20
    end
    redis.call('PEXPIRE', key, millis)
end
