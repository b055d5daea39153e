-- The driver of the throttle script (see throttle-prelude.lua for KEYS, ARGV and the return value): decide() checks
-- every policy of one call read-only, then, in acquire mode and only if no enforcing (non-shadow) policy rejected,
-- commits every policy that admitted the call. A rejected call therefore consumes nothing of any policy.
-- One call's policies are keys[k .. k + policies - 1] (KEYS, or key names passed in ARGV) and ARGV[a .. a + 6 *
-- policies - 1] (6 values per policy, as in the prelude), so decide_all decides several calls' slices one by one.
-- Work: one check and at most one commit per policy.

-- ARGV numbers, each distinct text parsed once (throttle-parse-once.lua, joined in front of this file).
local number = parse_once

local function decide(mode, token, keys, k, policies, a)
    if mode == 4 then
        -- Renewal: extend the call's leases only if all of them are still live; never revive an expired one.
        for i = 1, policies do
            local at = a + 6 * (i - 1)
            local algorithm = ALGORITHMS[number(ARGV[at])]
            if algorithm.held and not algorithm.held(keys[k + i - 1], token, number(ARGV[at + 4])) then
                return { 0 }
            end
        end
        for i = 1, policies do
            local at = a + 6 * (i - 1)
            local algorithm = ALGORITHMS[number(ARGV[at])]
            if algorithm.renew then
                algorithm.renew(keys[k + i - 1], token, number(ARGV[at + 4]), number(ARGV[at + 2]))
            end
        end
        return { 1 }
    end

    if mode == 2 or mode == 3 then
        for i = 1, policies do
            local at = a + 6 * (i - 1)
            local algorithm = ALGORITHMS[number(ARGV[at])]
            if mode == 2 then
                algorithm.release(keys[k + i - 1], token, number(ARGV[at + 4]))
            else
                algorithm.reset(keys[k + i - 1], number(ARGV[at + 2]))
            end
        end
        return { 1 }
    end

    local result = { 1 }
    -- Per policy: its algorithm, limit, window, burst, cost, then what its check returned (allowed, the reset-after
    -- of the state as it is, the values handed to commit), so the commit pass parses nothing again.
    local checked = {}
    for i = 1, policies do
        local at = a + 6 * (i - 1)
        local algorithm = ALGORITHMS[number(ARGV[at])]
        local limit, window, burst, cost = number(ARGV[at + 1]), number(ARGV[at + 2]), number(ARGV[at + 3]),
                number(ARGV[at + 4])
        local ok, remaining, retry, reset, unchanged, x, y, z = algorithm.check(keys[k + i - 1], limit, window, burst,
                cost)
        checked[i] = { algorithm, limit, window, burst, cost, ok, unchanged, x, y, z }
        if ok == 0 and ARGV[at + 5] == '0' then
            result[1] = 0
        end
        local base = 4 * (i - 1) + 2
        result[base] = ok
        result[base + 1] = remaining
        result[base + 2] = retry
        result[base + 3] = reset
    end

    if mode == 0 and result[1] == 1 then
        -- Commit every policy that admitted the call; the fencing token of each policy (0 for the algorithms that
        -- hand out none, and for a shadow policy that rejected) follows the decisions.
        local size = #result
        for i = 1, policies do
            local c = checked[i]
            local fence = 0
            if c[6] == 1 then
                fence = c[1].commit(keys[k + i - 1], c[2], c[3], c[4], c[5], token, c[8], c[9], c[10]) or 0
            end
            result[size + i] = fence
        end
    else
        for i = 1, policies do
            local c = checked[i]
            if c[6] == 1 then
                -- Nothing was taken: report what is left now, and when the state as it is now is back to full.
                result[4 * (i - 1) + 3] = result[4 * (i - 1) + 3] + c[5]
                result[4 * (i - 1) + 5] = c[7]
            end
        end
    end
    return result
end

-- A batch of calls (throttle-batch.lua, throttle-batch-cross-slot.lua), decided one after the other with the outcomes
-- they would have had one by one (one TIME for all): ARGV[a] onwards holds, per call, its number of policies n, mode (0
-- acquire or 1 peek), token and the 6 values of each of its n policies; keys holds the n keys of each call, in order.
-- Returns one reply per call: the one-call reply, or an error reply for a call that failed on the data under its keys,
-- which fails that call alone (a failing call writes nothing: its checks read every key before it commits any).
-- A key of FIXED_WINDOW, TOKEN_BUCKET or LEAKY_BUCKET is read at most once and written at most once per batch (STATE,
-- see throttle-prelude.lua), so a hot key costs one read and one write per batch.
-- Work: the sum of the calls' work; the caller bounds the number of calls per batch (RequestBatches.MAX_PARTS).
local function decide_all(keys, calls, a)
    STATE = {}
    local replies = {}
    local k = 1
    for c = 1, calls do
        local policies = number(ARGV[a])
        local ok, reply = pcall(decide, number(ARGV[a + 1]), ARGV[a + 2], keys, k, policies, a + 3)
        if ok or (type(reply) == 'table' and reply.err) then
            replies[c] = reply
        else
            replies[c] = { err = 'ERR ' .. tostring(reply) }
        end
        k = k + policies
        a = a + 3 + 6 * policies
    end
    flush_state()
    return replies
end
