-- A batch of calls whose keys lie in several hash slots of one Redis Cluster master (Redis 7 or later; the script
-- starts with throttle-cross-slot.lua's flags line): Redis Cluster only accepts KEYS of one slot, so the key names come
-- in ARGV, and Redis checks each key when the script touches it (a key of a slot this master no longer serves fails
-- that call alone, and Pacer sends it again to the slot's new master). ARGV[1]: the number of calls; ARGV[2]: the
-- number of keys K; ARGV[3 .. 2 + K]: the keys of each call, in order; then the calls (see decide_all in
-- throttle-driver.lua).
local key_count = tonumber(ARGV[2])
local keys = {}
for i = 1, key_count do
    keys[i] = ARGV[2 + i]
end
return decide_all(keys, tonumber(ARGV[1]), 3 + key_count)
