-- throttle time and arithmetic: the lines every throttle script starts with (the general script, before
-- throttle-prelude.lua, and each single-policy script, before throttle-single-policy-prelude.lua; see ThrottleScripts):
-- Redis TIME as NOW in integer microseconds, exact integer division, and the TTL rule every throttle key follows.

if redis.replicate_commands then
    -- Redis < 5 must replicate effects, not the script, since the script reads TIME before writing.
    redis.replicate_commands()
end

local clock = redis.call('TIME')
local NOW = tonumber(clock[1]) * 1000000 + tonumber(clock[2])

local math_floor = math.floor

-- Integer division rounded down / up, exact for non-negative integers below 2^53 despite Lua's doubles.
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

-- Redis (7.0 and older) counts a TTL set inside a script from the script's start, whole milliseconds, but deletes the
-- key at once if that moment has already passed: `PEXPIRE key 1` in a script that crosses a millisecond tick deletes
-- the key, and the next call starts from empty state. A TTL of at least MIN_TTL_MILLIS cannot pass during a script.
-- Longer-lived state is harmless: every algorithm ignores state older than its window.
local MIN_TTL_MILLIS = 20

-- Sets a TTL of at least `micros`: rounded up to whole milliseconds, plus one for the tick the script started in.
local function expire_after(key, micros)
    local millis = ceil_div(micros, 1000) + 1
    if millis < MIN_TTL_MILLIS then
        millis = MIN_TTL_MILLIS
    end
    redis.call('PEXPIRE', key, millis)
end
