-- test-clock: the test kit's clock (quarkus-pacer-test only; never part of an application's scripts). Under the test
-- kit every Pacer script is sent as its test-clock variant: this file, then the script as shipped (after the script's
-- flags line, which must come first), joined verbatim.
-- ARGV[#ARGV]: the clock offset in microseconds (never negative), appended to every call and removed here, so the
--       script reads its own ARGV unchanged.
-- Effect: redis.call('TIME') returns Redis TIME plus the offset; every other command goes to Redis as it is. The
--       script's own `redis` is a local table that shadows the global one for the rest of the chunk.
-- Work: O(1) per TIME call; removing the last ARGV element is O(1).
local pacer_clock_offset = tonumber(table.remove(ARGV))
local pacer_redis = redis
local redis = setmetatable({
    call = function(command, ...)
        if command == 'TIME' then
            local t = pacer_redis.call('TIME')
            local micros = tonumber(t[2]) + pacer_clock_offset % 1000000
            local seconds = tonumber(t[1]) + math.floor(pacer_clock_offset / 1000000) + math.floor(micros / 1000000)
            return { tostring(seconds), tostring(micros % 1000000) }
        end
        return pacer_redis.call(command, ...)
    end
}, { __index = pacer_redis })
