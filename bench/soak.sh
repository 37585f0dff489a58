#!/bin/sh
# Soak: a sweep of 10^6 distinct points (bench/spec-1m.json) at -j 2, with
# its resident memory and throughput sampled every INTERVAL seconds, so
# that a memory that grows with the sweep's length shows.  Not a test.
#   bench/soak.sh [TILEFIT] [SPEC] [INTERVAL] > table.md
# Prints a Markdown table: seconds, points done, points/s since the last
# sample, RSS (MiB).  The output goes to /dev/null (written through in
# place), so disk speed does not enter.
set -eu
bin=${1:-./tilefit}
spec=${2:-bench/spec-1m.json}
every=${3:-10}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$bin" sweep "$spec" -j 2 -o /dev/null 2>"$dir/progress" &
pid=$!
echo "| s | points | points/s | RSS MiB |"
echo "|---:|---:|---:|---:|"
t=0
last=0
while kill -0 "$pid" 2>/dev/null; do
  sleep "$every"
  t=$((t + every))
  rss=$(awk '/^VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$pid/status" 2>/dev/null || echo "-")
  done_=$(tr '\r' '\n' <"$dir/progress" | grep -o '[0-9]*/[0-9]* points' | tail -1 | cut -d/ -f1)
  done_=${done_:-0}
  [ "$rss" = "-" ] && break
  echo "| $t | $done_ | $(( (done_ - last) / every )) | $rss |"
  last=$done_
done
wait "$pid"
tail -1 "$dir/progress" | sed 's/^/    /'
