-- One call: ARGV[1] mode, ARGV[2] token, then 6 values per policy, one key per policy (see throttle-prelude.lua).
return decide(tonumber(ARGV[1]), ARGV[2], KEYS, 1, #KEYS, 3)
