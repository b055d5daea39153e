# Shared by measure.sh and measure-schedule.sh: sourced from the repository root, after P (the port) is set. Sets ROOT,
# R (Pacer's scripts) and WORK (a new temporary folder), and makes WORK the working directory.
ROOT=$(pwd)
R=$ROOT/runtime/src/main/resources/META-INF/pacer
WORK=$(mktemp -d)
cd "$WORK"

# The concatenation of scripts of Pacer's (names without .lua), one newline between them, as LuaScript.join builds it.
join() { for f in "$@"; do cat "$R/$f.lua"; if [ -n "$(tail -c1 "$R/$f.lua")" ]; then echo; fi; done; }

# Starts redis-server under callgrind on port P and waits until it answers; its pid in VG.
start_redis() {
  valgrind --tool=callgrind --callgrind-out-file=$WORK/cg.out redis-server --port $P --save "" --appendonly no \
    >$WORK/valgrind.log 2>&1 &
  VG=$!
  for i in $(seq 1 400); do redis-cli -p $P PING 2>/dev/null | grep -q PONG && break; sleep 0.3; done
}

# measure <label> <calls> <units per call> <command...>: the instructions of <calls> pipelined commands (after a warm-up,
# counters zeroed), divided by the units (decisions, messages) they carry; RANGE is redis-benchmark's -r, UNIT the name.
measure() {
  local label=$1 calls=$2 per=$3; shift 3
  redis-benchmark -p $P -c 1 -n 200 -P 50 -r $RANGE "$@" >/dev/null   # warm
  callgrind_control -z $VG >/dev/null 2>&1
  redis-benchmark -p $P -c 1 -n $calls -P 50 -r $RANGE "$@" >/dev/null
  callgrind_control -d $VG >/dev/null 2>&1
  local f=$(ls -t cg.out.* | head -1)
  local ir=$(grep -E "^(summary|totals):" $f | head -1 | awk '{print $2}')
  echo "$label: $ir Ir over $calls calls of $per ${UNIT}s = $((ir / calls / per)) per $UNIT"
}
