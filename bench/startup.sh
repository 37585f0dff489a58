#!/bin/sh
# Binding on demand, measured (not part of the tests): the sweep of
# bench/spec-5k.json at -j 1 and -j 2, and a whole-process fixed-tile solve
# against `tilefit machines b200` in the same run.  With BASE=path/to/tilefit
# (a build of an earlier commit, its data beside it) every figure is also
# taken for that binary, interleaved with this one's; DATA=dir makes both
# read the same machines and worksets (a spec of "*" then expands to the
# same points for both).  Prints a markdown section on stdout.
#   wall:   medians of ROUNDS rounds; a start-up round times RUNS processes
#           back to back, a sweep round one whole `tilefit sweep` process
#   cpu:    perf stat's task-clock per process (ROUNDS x RUNS), where perf is
#   instructions: valgrind --tool=callgrind, exact and load-independent (the
#           sweep's only with SWEEP_IR=1: minutes under valgrind)
set -eu
cd "$(dirname "$0")/.."
BIN=${BIN:-./tilefit}
BASE=${BASE:-}
ROUNDS=${ROUNDS:-7}
RUNS=${RUNS:-100}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s%N; }
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
data_of() { if [ -n "${DATA:-}" ]; then echo "$DATA"; else (cd "$(dirname "$1")" && pwd); fi; } # the tree it was built in

# The two start-up commands; prefix runs them under a measuring tool.
machines() { TILEFIT_DATA=$(data_of "$1") $prefix "$1" machines b200; }
solve() {
  TILEFIT_DATA=$(data_of "$1") $prefix "$1" solve -m b200 -w fa4-fwd -p d=128 -p dv=128 --fix B_r=128 --fix B_c=128 \
    --fix q_stage=2 --objective "max stages"
}
# SPEC (default bench/spec-5k.json) is the sweep; BASE_SPEC, when the base
# binary cannot read SPEC (a key it predates, such as any_arch), its copy.
sweep() {
  spec=${SPEC:-bench/spec-5k.json}
  [ "$1" = "$BASE" ] && spec=${BASE_SPEC:-$spec}
  TILEFIT_DATA=$(data_of "$1") $prefix "$1" sweep "$spec" -j "$2" -o "$3"
}
prefix=

# microseconds per process, RUNS processes of command $1 on binary $2
batch() {
  t0=$(now)
  i=0
  while [ $i -lt "$RUNS" ]; do
    "$1" "$2" > /dev/null
    i=$((i + 1))
  done
  echo $(( ($(now) - t0) / RUNS / 1000 ))
}

# milliseconds of CPU per process of command $1 on binary $2 (perf's
# task-clock over ROUNDS x RUNS runs), or nothing without perf
cpu() {
  command -v perf > /dev/null || return 0
  prefix="perf stat -x, -r $((ROUNDS * RUNS)) -e task-clock -o $tmp/perf.out --"
  "$1" "$2" > /dev/null 2>&1 || true
  prefix=
  awk -F, '/task-clock/ {printf "%.3f", $1}' "$tmp/perf.out"
}

# instructions of command $1 (binary $2, then its arguments), or nothing
# without valgrind
instructions() {
  command -v valgrind > /dev/null || return 0
  cmd=$1
  shift
  prefix="valgrind --tool=callgrind --callgrind-out-file=$tmp/cg.out"
  "$cmd" "$@" > /dev/null 2>&1 || true
  prefix=
  callgrind_annotate "$tmp/cg.out" 2> /dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'
}

bins="new:$BIN"
[ -n "$BASE" ] && bins="$bins base:$BASE"
r=0
while [ $r -lt "$ROUNDS" ]; do
  for nb in $bins; do
    n=${nb%%:*} b=${nb#*:}
    batch machines "$b" >> "$tmp/$n.machines"
    batch solve "$b" >> "$tmp/$n.solve"
    for j in 1 2; do
      t0=$(now)
      sweep "$b" $j "$tmp/$n-$j.jsonl" 2> /dev/null
      echo $(( ($(now) - t0) / 1000000 )) >> "$tmp/$n.sweep$j"
    done
  done
  r=$((r + 1))
done
for nb in $bins; do
  n=${nb%%:*} b=${nb#*:}
  cpu machines "$b" > "$tmp/$n.cpu-machines"
  cpu solve "$b" > "$tmp/$n.cpu-solve"
  instructions machines "$b" > "$tmp/$n.ir-machines"
  instructions solve "$b" > "$tmp/$n.ir-solve"
  if [ "${SWEEP_IR:-0}" = 1 ]; then
    instructions sweep "$b" 1 "$tmp/ir-$n.jsonl" > "$tmp/$n.ir-sweep"
  fi
done

points=$(wc -l < "$tmp/new-1.jsonl")
m() { median < "$tmp/$1"; }
rate() { awk -v n="$points" -v ms="$(m "$1")" 'BEGIN {printf "%.0f", n / (ms / 1000)}'; }
v() { cat "$tmp/$1" 2> /dev/null; }
row() { # label, base value, new value, unit; ratio new / base
  if [ -n "$BASE" ]; then
    echo "| $1 | $2$4 | $3$4 | $( [ -n "$2" ] && [ -n "$3" ] && ratio "$3" "$2") |"
  else
    echo "| $1 | $3$4 |"
  fi
}

echo "## Binding on demand: sweep throughput and start-up (bench/startup.sh)"
echo
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) CPUs; load average $(cut -d' ' -f1 /proc/loadavg) after the run."
echo "Wall figures are medians of $ROUNDS rounds (a start-up round: the mean of $RUNS processes back to back; a sweep round:"
echo "one whole \`tilefit sweep bench/spec-5k.json -j J -o FILE\` process, $points points, points/s = points / wall time)."
echo "CPU is perf's task-clock per process over $RUNS runs; instructions are callgrind's, exact and independent of load."
[ -n "$BASE" ] && echo "*Before* is \`$BASE\`, measured in the same run, interleaved with *after*."
[ -n "${DATA:-}" ] && echo "Both read the machines and worksets of \`$DATA\`."
echo
if [ -n "$BASE" ]; then
  echo "| figure | before | after | after / before |"
  echo "|---|---:|---:|---:|"
else
  echo "| figure | this build |"
  echo "|---|---:|"
fi
for j in 1 2; do
  row "sweep -j $j, points/s" "$( [ -n "$BASE" ] && rate base.sweep$j)" "$(rate new.sweep$j)" ""
done
[ -n "$(v new.ir-sweep)" ] && row "sweep -j 1, instructions" "$(v base.ir-sweep)" "$(v new.ir-sweep)" ""
row "\`tilefit machines b200\`, wall" "$( [ -n "$BASE" ] && m base.machines)" "$(m new.machines)" " us"
row "fixed-tile \`tilefit solve\`, wall" "$( [ -n "$BASE" ] && m base.solve)" "$(m new.solve)" " us"
row "solve / machines, wall" "$( [ -n "$BASE" ] && ratio "$(m base.solve)" "$(m base.machines)")" "$(ratio "$(m new.solve)" "$(m new.machines)")" ""
if [ -n "$(v new.cpu-solve)" ]; then
  row "\`tilefit machines b200\`, CPU" "$(v base.cpu-machines)" "$(v new.cpu-machines)" " ms"
  row "fixed-tile \`tilefit solve\`, CPU" "$(v base.cpu-solve)" "$(v new.cpu-solve)" " ms"
  row "solve / machines, CPU" "$( [ -n "$BASE" ] && ratio "$(v base.cpu-solve)" "$(v base.cpu-machines)")" "$(ratio "$(v new.cpu-solve)" "$(v new.cpu-machines)")" ""
fi
if [ -n "$(v new.ir-solve)" ]; then
  row "\`tilefit machines b200\`, instructions" "$(v base.ir-machines)" "$(v new.ir-machines)" ""
  row "fixed-tile \`tilefit solve\`, instructions" "$(v base.ir-solve)" "$(v new.ir-solve)" ""
  row "solve / machines, instructions" "$( [ -n "$BASE" ] && ratio "$(v base.ir-solve)" "$(v base.ir-machines)")" "$(ratio "$(v new.ir-solve)" "$(v new.ir-machines)")" ""
fi
if [ -n "$BASE" ]; then
  echo
  if cmp -s "$tmp/base-1.jsonl" "$tmp/new-1.jsonl" && cmp -s "$tmp/new-1.jsonl" "$tmp/new-2.jsonl"; then
    echo "Before and after, -j 1 and -j 2, write identical sweep output."
  else
    echo "**The sweep outputs differ.**"
  fi
fi
