#!/bin/sh
# Binding on demand, measured (not part of the tests): a whole-process
# fixed-tile solve against `tilefit machines b200` in the same run, and the
# sweep of bench/spec-5k.json at -j 1 and -j 2.  With BASE=path/to/tilefit
# (a build of an earlier commit, its data beside it) every figure is also
# taken for that binary, interleaved with this one's, and the ratio shown.
# Prints a markdown section on stdout.  Medians of ROUNDS rounds; a round
# of the start-up figures times RUNS processes back to back.
set -eu
cd "$(dirname "$0")/.."
BIN=${BIN:-./tilefit}
BASE=${BASE:-}
ROUNDS=${ROUNDS:-7}
RUNS=${RUNS:-100}
SWEEPS=${SWEEPS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s%N; }

# median of the numbers on stdin
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# per-process microseconds of RUNS runs of "$@"
batch() {
  t0=$(now)
  i=0
  while [ $i -lt "$RUNS" ]; do
    "$@" > /dev/null
    i=$((i + 1))
  done
  echo $(( ($(now) - t0) / RUNS / 1000 ))
}


# data directory of a binary: the tree it was built in
data_of() { (cd "$(dirname "$1")" && pwd); }

startup() { # BIN -> two files of per-round figures
  d=$(data_of "$1")
  TILEFIT_DATA=$d batch "$1" machines b200 >> "$tmp/$2.machines"
  TILEFIT_DATA=$d batch "$1" solve -m b200 -w fa4-fwd -p d=128 -p dv=128 --fix B_r=128 --fix B_c=128 \
    --fix q_stage=2 --objective "max stages" >> "$tmp/$2.solve"
}

sweep() { # BIN NAME J -> seconds of one sweep, and points/s
  d=$(data_of "$1")
  t0=$(now)
  TILEFIT_DATA=$d "$1" sweep bench/spec-5k.json -j "$3" -o "$tmp/$2-$3.jsonl" 2> /dev/null
  echo $(( ($(now) - t0) / 1000000 )) >> "$tmp/$2.sweep$3"
}

r=0
while [ $r -lt "$ROUNDS" ]; do
  startup "$BIN" new
  [ -n "$BASE" ] && startup "$BASE" base
  r=$((r + 1))
done
r=0
while [ $r -lt "$SWEEPS" ]; do
  for j in 1 2; do
    sweep "$BIN" new $j
    [ -n "$BASE" ] && sweep "$BASE" base $j
  done
  r=$((r + 1))
done

points=$(wc -l < "$tmp/new-1.jsonl")
m() { median < "$tmp/$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
rate() { awk -v n="$points" -v ms="$1" 'BEGIN {printf "%.0f", n / (ms / 1000)}'; }

echo "## Binding on demand: start-up and sweep throughput (bench/startup.sh)"
echo
echo "$(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) CPUs; load average $(cut -d' ' -f1 /proc/loadavg) when the figures were taken."
echo "Start-up: the median over $ROUNDS rounds of the mean wall time of $RUNS processes run back to back."
echo "Sweep: the median of $SWEEPS whole-process runs of \`tilefit sweep bench/spec-5k.json -o FILE\` ($points points); points/s = points / wall time."
[ -n "$BASE" ] && echo "*Before* is \`$BASE\`, measured in the same run, interleaved with *after*."
echo
if [ -n "$BASE" ]; then
  echo "| figure | before | after | after / before |"
  echo "|---|---:|---:|---:|"
  echo "| \`tilefit machines b200\` | $(m base.machines) us | $(m new.machines) us | $(ratio "$(m new.machines)" "$(m base.machines)") |"
  echo "| fixed-tile \`tilefit solve\` (fa4-fwd, b200) | $(m base.solve) us | $(m new.solve) us | $(ratio "$(m new.solve)" "$(m base.solve)") |"
  echo "| solve / machines | $(ratio "$(m base.solve)" "$(m base.machines)") | $(ratio "$(m new.solve)" "$(m new.machines)") | |"
  for j in 1 2; do
    echo "| sweep -j $j, points/s | $(rate "$(m base.sweep$j)") | $(rate "$(m new.sweep$j)") | $(ratio "$(m base.sweep$j)" "$(m new.sweep$j)") |"
  done
  cmp -s "$tmp/base-1.jsonl" "$tmp/new-1.jsonl" && echo && echo "Before and after write identical sweep output."
else
  echo "| figure | median |"
  echo "|---|---:|"
  echo "| \`tilefit machines b200\` | $(m new.machines) us |"
  echo "| fixed-tile \`tilefit solve\` (fa4-fwd, b200) | $(m new.solve) us |"
  echo "| solve / machines | $(ratio "$(m new.solve)" "$(m new.machines)") |"
  for j in 1 2; do
    echo "| sweep -j $j, points/s | $(rate "$(m new.sweep$j)") |"
  done
fi
