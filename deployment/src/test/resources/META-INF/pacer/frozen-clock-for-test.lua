-- frozen-clock-for-test: a clock that stands still, for tests that compare two scripts' decisions at the same instant.
-- Installed like the test kit's test-clock.lua (a ScriptClockShift): joined in front of every script as it is sent.
-- ARGV[#ARGV]: the time in microseconds that redis.call('TIME') returns, removed here, so the script reads its own ARGV
--       unchanged. Every other command goes to Redis as it is.
-- Work: O(1) per TIME call.
local frozen_micros = tonumber(table.remove(ARGV))
local frozen_redis = redis
local redis = setmetatable({
    call = function(command, ...)
        if command == 'TIME' then
            return { string.format('%d', math.floor(frozen_micros / 1000000)), string.format('%d', frozen_micros % 1000000) }
        end
        return frozen_redis.call(command, ...)
    end
}, { __index = frozen_redis })
