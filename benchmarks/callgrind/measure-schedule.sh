#!/bin/bash
# Redis instructions per scheduled message (Performance page, "Where the remaining time goes"): a redis-server under
# valgrind, each case's counters zeroed, N calls from redis-benchmark (-P 50), the instructions divided by the messages.
# Cases: delayed-schedule.lua (one message per call, as a lone schedule goes) and delayed-schedule-batch.lua with 16
# messages per call (about what 64 producers form), each a new id due in an hour with a 14-byte payload.
# Needs valgrind, redis-server and redis-benchmark; run from the repository root: bash benchmarks/callgrind/measure-schedule.sh
set -e
P=${PORT:-47031}
R=$(pwd)/runtime/src/main/resources/META-INF/pacer
WORK=$(mktemp -d)
cd "$WORK"
join() { for f in "$@"; do cat "$R/$f.lua"; if [ -n "$(tail -c1 "$R/$f.lua")" ]; then echo; fi; done; }
join delayed-message delayed-schedule-message delayed-schedule > one.lua
join delayed-message delayed-schedule-message delayed-schedule-batch > batch.lua
valgrind --tool=callgrind --callgrind-out-file=$WORK/cg.out redis-server --port $P --save "" --appendonly no >$WORK/valgrind.log 2>&1 &
VG=$!
for i in $(seq 1 400); do redis-cli -p $P PING 2>/dev/null | grep -q PONG && break; sleep 0.3; done
ONE=$(redis-cli -p $P SCRIPT LOAD "$(cat one.lua)")
BAT=$(redis-cli -p $P SCRIPT LOAD "$(cat batch.lua)")
K=(p:d:{q}:due p:d:{q}:inflight p:d:{q}:dead p:d:{q}:messages p:d:{q}:claims p:d:{q}:reasons)
CH=p:d:{q}:wake
measure() { # label calls messages-per-call command...
  local label=$1 calls=$2 per=$3; shift 3
  redis-benchmark -p $P -c 1 -n 200 -P 50 -r 100000000 "$@" >/dev/null   # warm
  callgrind_control -z $VG >/dev/null 2>&1
  redis-benchmark -p $P -c 1 -n $calls -P 50 -r 100000000 "$@" >/dev/null
  callgrind_control -d $VG >/dev/null 2>&1
  local f=$(ls -t cg.out.* | head -1)
  local ir=$(grep -E "^(summary|totals):" $f | head -1 | awk '{print $2}')
  echo "$label: $ir Ir over $calls calls of $per messages = $((ir / calls / per)) per message"
}
measure "delayed-schedule, one message per call" 5000 1 EVALSHA $ONE 6 "${K[@]}" __rand_int__ payload-123456 t new "" 3600000 $CH
n=16
a=(EVALSHA $BAT 6 "${K[@]}" $n)
for i in $(seq 1 $n); do a+=(__rand_int__-$i payload-123456 t new "" 3600000 $CH); done
measure "delayed-schedule-batch, $n per call" $((10000 / n)) $n "${a[@]}"
redis-cli -p $P SHUTDOWN NOSAVE >/dev/null 2>&1 || true
wait $VG || true
rm -rf "$WORK"
