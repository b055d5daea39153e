-- recurring-list: one page of the recurring schedules, read only: an HSCAN step over the definitions, so a caller
-- repeating it from cursor '0' until the cursor is '0' again sees every schedule that existed all along at least once.
-- KEYS: as recurring-upsert.lua
-- ARGV[1]: cursor ('0' to start), ARGV[2]: COUNT hint of the step
-- Returns: { next cursor, { id, definition, next fire time or -1, 1 when paused else 0, ... } }
-- Work: O(ARGV[2]) on average
local scan = redis.call('HSCAN', KEYS[1], ARGV[1], 'COUNT', tonumber(ARGV[2]))
local entries = scan[2]
local page = {}
for i = 1, #entries, 2 do
    local id = entries[i]
    local score = redis.call('ZSCORE', KEYS[2], id)
    local paused = 0
    local next = -1
    if score == 'inf' then
        paused = 1
        next = tonumber(redis.call('HGET', KEYS[3], id) or -1)
    elseif score then
        next = tonumber(score)
    end
    page[#page + 1] = id
    page[#page + 1] = entries[i + 1]
    page[#page + 1] = next
    page[#page + 1] = paused
end
return { scan[1], page }
