-- throttle, single policy, one call (see throttle-single-policy-prelude.lua). KEYS[1]: the base key; ARGV[1 .. 4]: the
-- algorithm's values. Returns the call's one-value reply.
return decide_one(KEYS[1], 1)
