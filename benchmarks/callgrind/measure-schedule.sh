#!/bin/bash
# Redis instructions per scheduled message, counted by callgrind (Performance page, "Redis instructions per scheduled
# message"): a redis-server under valgrind, each case's counters zeroed, N calls from redis-benchmark (-P 50), the
# instructions divided by the messages. Cases: Pacer's one-call schedule script (a message alone on its connection),
# its batch script with 4, 16 and 64 messages (concurrent schedule calls of one shard travel as one batch), each with a
# generated id ('new': stored without looking for an existing one) and with an id of the caller's ('upsert'), a 100-byte
# payload due in 1 hour, into a queue that already holds 100,000 messages.
# Needs valgrind, redis-server and redis-benchmark; run from the repository root: bash benchmarks/callgrind/measure-schedule.sh
set -e
P=${PORT:-47002}
RANGE=1000000000
UNIT=message
. "$(pwd)/benchmarks/callgrind/callgrind.sh"
join delayed-message delayed-schedule-message delayed-schedule > single.lua
join delayed-message delayed-schedule-message delayed-schedule-batch > batch.lua
start_redis
ONE=$(redis-cli -p $P SCRIPT LOAD "$(cat single.lua)")
BAT=$(redis-cli -p $P SCRIPT LOAD "$(cat batch.lua)")
B="pacer:d:{bench}:"
KEYS="${B}due ${B}inflight ${B}dead ${B}messages ${B}claims ${B}reasons"
PAYLOAD=$(printf '%0100d' 0)
# A queue of 100,000 waiting messages, so each ZADD works on a realistic sorted set.
redis-benchmark -p $P -c 1 -n 100000 -P 50 -r 1000000000 EVALSHA $ONE 6 $KEYS "seed-__rand_int__" "$PAYLOAD" t new "" 3600000 "${B}wake" >/dev/null
batch_args() { # n mode: fills ARGS (an array, so the empty due-time argument survives)
  local n=$1 mode=$2
  ARGS=(EVALSHA $BAT 6 $KEYS $n)
  for i in $(seq 1 $n); do ARGS+=("m$i-__rand_int__" "$PAYLOAD" t $mode "" 3600000 "${B}wake"); done
}
for mode in new upsert; do
  measure "one-call script, $mode id" 5000 1 EVALSHA $ONE 6 $KEYS "m-__rand_int__" "$PAYLOAD" t $mode "" 3600000 "${B}wake"
  for n in 4 16 64; do
    batch_args $n $mode
    measure "batch of $n, $mode ids" $((10000 / n)) $n "${ARGS[@]}"
  done
done
redis-cli -p $P SHUTDOWN NOSAVE >/dev/null 2>&1 || true
wait $VG || true
rm -rf "$WORK"
