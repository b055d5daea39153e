-- A batch of calls whose keys share one hash slot (see decide_all in throttle-driver.lua). KEYS: the keys of each
-- call, in order; ARGV[1]: the number of calls, then the calls (from ARGV[2]).
return decide_all(KEYS, tonumber(ARGV[1]), 2)
