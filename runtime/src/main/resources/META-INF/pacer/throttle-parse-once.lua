-- ARGV numbers parsed once per distinct text in a script run: the calls of a batch mostly share their policies'
-- values, and tonumber parses with strtod, a large share of a decision's Redis instructions. Joined in front of the
-- general script's driver (throttle-driver.lua) and of the single-policy batch (throttle-single-policy-batch.lua).
local NUMBERS = {}
local function parse_once(text)
    local value = NUMBERS[text]
    if value == nil then
        value = tonumber(text)
        NUMBERS[text] = value
    end
    return value
end
