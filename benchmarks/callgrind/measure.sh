#!/bin/bash
# Redis instructions per throttle decision, counted by callgrind (Performance page, "Where Redis's time goes"): a
# redis-server under valgrind, each case's counters zeroed, N calls from redis-benchmark (-P 50), the instructions
# divided by the decisions. Cases: the minimal token-bucket script, Pacer's one-call script, its single-policy script
# (an acquire against one token-bucket policy, alone on its connection), and Pacer's batch scripts (the general one and
# the single-policy one) with 2, 8, 18 and 32 calls (18 is the mean batch at 64 callers on a hot key), on a hot key and
# on 10,000 keys.
# Needs valgrind, redis-server and redis-benchmark; run from the repository root: bash benchmarks/callgrind/measure.sh
set -e
P=${PORT:-47001}
RANGE=10000
UNIT=decision
. "$(pwd)/benchmarks/callgrind/callgrind.sh"
join throttle-time throttle-prelude throttle-token-bucket throttle-parse-once throttle-driver throttle-single > single.lua
join throttle-time throttle-prelude throttle-token-bucket throttle-parse-once throttle-driver throttle-batch > batch.lua
join throttle-time throttle-single-policy-prelude throttle-single-policy-token-bucket throttle-single-policy-one > single-policy.lua
join throttle-time throttle-single-policy-prelude throttle-single-policy-token-bucket throttle-parse-once throttle-single-policy-batch > single-policy-batch.lua
cp "$ROOT/benchmarks/src/main/resources/baseline/minimal-token-bucket.lua" minimal.lua
start_redis
MIN=$(redis-cli -p $P SCRIPT LOAD "$(cat minimal.lua)")
ONE=$(redis-cli -p $P SCRIPT LOAD "$(cat single.lua)")
BAT=$(redis-cli -p $P SCRIPT LOAD "$(cat batch.lua)")
SP=$(redis-cli -p $P SCRIPT LOAD "$(cat single-policy.lua)")
SPB=$(redis-cli -p $P SCRIPT LOAD "$(cat single-policy-batch.lua)")
PART="1 0 - 4 1000000000 1000000 1000000000 1 0"
batch_args() { # n key-template
  local n=$1 key=$2
  local a="EVALSHA $BAT $n"
  for i in $(seq 1 $n); do a="$a $key"; done
  a="$a $n"; for i in $(seq 1 $n); do a="$a $PART"; done
  echo $a
}
single_policy_batch_args() { # n key-template
  local n=$1 key=$2
  local a="EVALSHA $SPB $n"
  for i in $(seq 1 $n); do a="$a $key"; done
  for i in $(seq 1 $n); do a="$a 1000000000 1000000 1000000000 1"; done
  echo $a
}
measure "minimal script, hot key" 5000 1 EVALSHA $MIN 1 "baseline:{hot}" 1000000000 1.0E9
measure "minimal script, 10000 keys" 5000 1 EVALSHA $MIN 1 "baseline:{k__rand_int__}" 1000000000 1.0E9
measure "Pacer single call, hot key" 5000 1 EVALSHA $ONE 1 "pacer:t:{hot}b" 0 - 4 1000000000 1000000 1000000000 1 0
measure "Pacer single call, 10000 keys" 5000 1 EVALSHA $ONE 1 "pacer:t:{k__rand_int__}b" 0 - 4 1000000000 1000000 1000000000 1 0
measure "Pacer single-policy script, hot key" 5000 1 EVALSHA $SP 1 "pacer:t:{hot}b" 1000000000 1000000 1000000000 1
measure "Pacer single-policy script, 10000 keys" 5000 1 EVALSHA $SP 1 "pacer:t:{k__rand_int__}b" 1000000000 1000000 1000000000 1
for n in 2 8 18 32; do
  measure "Pacer batch of $n, hot key" $((10000 / n)) $n $(batch_args $n "pacer:t:{hot}b")
  measure "Pacer batch of $n, 10000 keys" $((10000 / n)) $n $(batch_args $n "pacer:t:{k__rand_int__}b")
  measure "Pacer single-policy batch of $n, hot key" $((10000 / n)) $n $(single_policy_batch_args $n "pacer:t:{hot}b")
  measure "Pacer single-policy batch of $n, 10000 keys" $((10000 / n)) $n $(single_policy_batch_args $n "pacer:t:{k__rand_int__}b")
done
redis-cli -p $P SHUTDOWN NOSAVE >/dev/null 2>&1 || true
wait $VG || true
rm -rf "$WORK"
