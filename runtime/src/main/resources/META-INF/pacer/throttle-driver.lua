-- The driver of the throttle script (see throttle-prelude.lua for KEYS, ARGV and the return value): decide() checks
-- every policy of one call read-only, then, in acquire mode and only if no enforcing (non-shadow) policy rejected,
-- commits every policy that admitted the call. A rejected call therefore consumes nothing of any policy.
-- One call's policies are KEYS[k .. k + policies - 1] and ARGV[a .. a + 6 * policies - 1] (6 values per policy, as in
-- the prelude), so a batch (throttle-batch.lua) decides several calls' slices of KEYS and ARGV one after the other.
-- Work: one check and at most one commit per policy.
local function decide(mode, token, k, policies, a)
    if mode == 4 then
        -- Renewal: extend the call's leases only if all of them are still live; never revive an expired one.
        for i = 1, policies do
            local at = a + 6 * (i - 1)
            local algorithm = ALGORITHMS[tonumber(ARGV[at])]
            if algorithm.held and not algorithm.held(KEYS[k + i - 1], token, tonumber(ARGV[at + 4])) then
                return { 0 }
            end
        end
        for i = 1, policies do
            local at = a + 6 * (i - 1)
            local algorithm = ALGORITHMS[tonumber(ARGV[at])]
            if algorithm.renew then
                algorithm.renew(KEYS[k + i - 1], token, tonumber(ARGV[at + 4]), tonumber(ARGV[at + 2]))
            end
        end
        return { 1 }
    end

    if mode == 2 or mode == 3 then
        for i = 1, policies do
            local at = a + 6 * (i - 1)
            local algorithm = ALGORITHMS[tonumber(ARGV[at])]
            if mode == 2 then
                algorithm.release(KEYS[k + i - 1], token, tonumber(ARGV[at + 4]))
            else
                algorithm.reset(KEYS[k + i - 1], tonumber(ARGV[at + 2]))
            end
        end
        return { 1 }
    end

    local result = { 1 }
    local fences = {}
    local admitted = {}
    local states = {}
    for i = 1, policies do
        local at = a + 6 * (i - 1)
        local algorithm = ALGORITHMS[tonumber(ARGV[at])]
        local ok, remaining, retry, reset, unchanged, a, b, c = algorithm.check(KEYS[k + i - 1], tonumber(ARGV[at + 1]),
                tonumber(ARGV[at + 2]), tonumber(ARGV[at + 3]), tonumber(ARGV[at + 4]))
        admitted[i] = ok
        states[i] = { a, b, c, unchanged }
        if ok == 0 and ARGV[at + 5] == '0' then
            result[1] = 0
        end
        local base = 4 * (i - 1) + 2
        result[base] = ok
        result[base + 1] = remaining
        result[base + 2] = retry
        result[base + 3] = reset
    end

    for i = 1, policies do
        local at = a + 6 * (i - 1)
        local cost = tonumber(ARGV[at + 4])
        if mode == 0 and result[1] == 1 and admitted[i] == 1 then
            local state = states[i]
            fences[i] = ALGORITHMS[tonumber(ARGV[at])].commit(KEYS[k + i - 1], tonumber(ARGV[at + 1]), tonumber(ARGV[at + 2]),
                    tonumber(ARGV[at + 3]), cost, token, state[1], state[2], state[3]) or 0
        elseif admitted[i] == 1 then
            -- Nothing was taken: report what is left now, and when the state as it is now is back to full.
            result[4 * (i - 1) + 3] = result[4 * (i - 1) + 3] + cost
            result[4 * (i - 1) + 5] = states[i][4]
        end
    end
    if mode == 0 and result[1] == 1 then
        -- The fencing token of each policy (0 for the algorithms that hand out none) follows the decisions.
        local size = #result
        for i = 1, policies do
            result[size + i] = fences[i] or 0
        end
    end
    return result
end
