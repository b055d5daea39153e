-- throttle: decides the N stacked rate-limit policies of one call, all-or-nothing, in one atomic script.
--
-- The script is assembled at startup by joining these files verbatim, in this fixed order (never generated):
--   throttle-time.lua (NOW, integer division, expire_after), throttle-prelude.lua, then only the algorithm files the stack uses, in code order (throttle-fixed-window.lua,
--   throttle-sliding-window.lua, throttle-sliding-log.lua, throttle-token-bucket.lua, throttle-leaky-bucket.lua,
--   throttle-concurrency.lua), then throttle-parse-once.lua and throttle-driver.lua, then throttle-single.lua (one call, the layout below) or
--   throttle-batch.lua (several calls in one script run, one after the other): one script per combination of
--   algorithms and entry (ThrottleScripts), so a call defines only the functions it runs.
-- Each algorithm file registers check/commit/release/reset functions in ALGORITHMS under its code; the driver
-- checks every policy (read-only), then commits all of them only if none of the enforcing policies rejected.
-- check returns: allowed (1|0), remaining, retry-after, reset-after if the permits are taken, reset-after of the state
-- as it is (reported when nothing is taken: a peek, or a call another policy rejected), then up to three values
-- handed to commit.
--
-- KEYS: one base key per policy, KEYS[i] = <prefix>:t:{<tag>}<policy> (see ThrottleKeyLayout: the tag is the call's
--       key, or \g<group> for the global key, so all KEYS of one call share one hash slot); an algorithm appends its
--       own suffix (":fw:<window index>", ":sw:<window index>", ":sl", ":tb", ":lb", ":cc" and ":ccf") to its base key.
-- ARGV[1]: mode: 0 acquire, 1 peek (never writes), 2 release (CONCURRENCY leases), 3 reset (delete the state),
--       4 renew (extend the call's CONCURRENCY leases by a window, only if all of them are still live)
-- ARGV[2]: a token unique to this call (names SLIDING_LOG entries and CONCURRENCY leases)
-- ARGV[3 + 6 * (i - 1) ...]: for policy i: algorithm code (1 FIXED_WINDOW, 2 SLIDING_WINDOW, 3 SLIDING_LOG,
--       4 TOKEN_BUCKET, 5 LEAKY_BUCKET, 6 CONCURRENCY), limit, window in microseconds, burst, cost, shadow (0|1)
-- Returns: { allowed (1|0), then for each policy i: allowed (1|0), remaining permits, retry-after in
--       microseconds (rounded up, never early; 0 when allowed), reset-after in microseconds }
--       and, for a permitted acquire only, one fencing token per policy (CONCURRENCY; 0 for the other algorithms)
--       (modes 2 and 3 return { 1 }; mode 4 returns { 1 } when renewed, { 0 } when a lease was lost)
-- Work: O(N) commands for FIXED_WINDOW, SLIDING_WINDOW, TOKEN_BUCKET and LEAKY_BUCKET; SLIDING_LOG and CONCURRENCY
--       add O(log(limit) + cost) per policy, plus the removal of at most `limit` expired entries.
-- Time: Redis TIME, integer microseconds. Every key written gets a TTL covering the state it holds.
-- Integers stay exact: the build and startup check (ThrottleDurations.exactnessProblem) that the products the
-- SLIDING_WINDOW, TOKEN_BUCKET and LEAKY_BUCKET scripts form stay below 2^52; the others only add a window to TIME.

local ALGORITHMS = {}

-- An integer below 2^53 as decimal text, for key names and stored values (tostring would use exponent notation).
-- '%d' formats it as a 64-bit integer; '%.0f' would print a double, several times the instructions per call.
local function index_suffix(index)
    return string.format('%d', index)
end

-- A batch (throttle-batch.lua) sets STATE to a table: the O(1) algorithms (FIXED_WINDOW, TOKEN_BUCKET, LEAKY_BUCKET)
-- then read each key at most once per batch (cached_state) and keep what their commits leave in STATE
-- (committed_state), written once at the batch's end (flush_state), so a hot key costs one read and one write per
-- batch instead of per call. Outside a batch STATE is nil and every commit writes at once.
local STATE = nil

-- The value cached for `key` in this batch, or nil (always nil outside a batch).
local function cached_state(key)
    local entry = STATE and STATE[key]
    return entry and entry.value
end

-- Caches a value read from Redis for the rest of the batch.
local function remember_state(key, value)
    if STATE then
        STATE[key] = { value = value }
    end
    return value
end

-- Records the state a commit leaves: `write(key, value)` and a TTL of `micros`, now outside a batch, at its end in one.
local function committed_state(key, value, micros, write)
    if STATE then
        -- A hot key commits many times per batch: its entry is updated in place, not allocated again.
        local entry = STATE[key]
        if entry then
            entry.value = value
            entry.micros = micros
            entry.write = write
        else
            STATE[key] = { value = value, micros = micros, write = write }
        end
    else
        write(key, value)
        expire_after(key, micros)
    end
end

local function flush_state()
    for key, entry in pairs(STATE) do
        if entry.write then
            entry.write(key, entry.value)
            expire_after(key, entry.micros)
        end
    end
end

-- Writers of committed_state: an integer as a string value.
local function write_integer(key, value)
    redis.call('SET', key, index_suffix(value))
end

-- The rejection of a sorted-set log (SLIDING_LOG entries, CONCURRENCY leases) of `live` entries scored from `from`:
-- retry when the entry whose expiry frees enough room for `cost` permits expires (its score + `offset`).
local function log_rejection(key, from, live, cost, limit, offset, window, reset)
    local excess = live + cost - limit
    local entry = redis.call('ZRANGEBYSCORE', key, from, '+inf', 'WITHSCORES', 'LIMIT', excess - 1, 1)
    local retry = window
    if entry[2] then
        retry = tonumber(entry[2]) + offset - NOW
    end
    local remaining = limit - live
    if remaining < 0 then
        remaining = 0
    end
    return 0, remaining, retry, reset, reset, key, 0
end
