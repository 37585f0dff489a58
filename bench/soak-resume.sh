#!/bin/sh
# Soak with kills: the sweep of bench/spec-1m.json (10^6 distinct points)
# at -j 2 under an address-space limit, once uninterrupted and once with
# --resume, killed three times (SIGKILL, SIGTERM, SIGKILL) after a share of
# the uninterrupted run's time and resumed each time; the two files must be
# byte for byte the same.  Not a test: it takes minutes (bench/results.md).
#   bench/soak-resume.sh [TILEFIT] [SPEC] [LIMIT_MIB]
# Prints a Markdown table of the runs, then "identical" (exit 0) or
# "DIFFERENT" (exit 1).  The two outputs (about 1.5 KB a point) are written
# to a new directory under $TMPDIR and removed at the end.
set -eu
bin=${1:-./tilefit}
spec=${2:-bench/spec-1m.json}
limit=${3:-512}
dir=$(mktemp -d "${TMPDIR:-/tmp}/tilefit-soak-XXXXXX")
trap 'rm -rf "$dir"' EXIT

# One run of the sweep under the limit, in the background; its pid in $pid.
# A run to be stopped execs tilefit itself, so that $pid is tilefit's and
# the signal reaches it (under /usr/bin/time it reached only time, and
# tilefit went on writing beside the next run); a run to the end goes
# under /usr/bin/time for its peak RSS.
start() {
  name=$1
  shift
  if [ "$name" = full ] || [ "$name" = last ]; then
    (ulimit -v $((limit * 1024)) && exec /usr/bin/time -f "%M %e" -o "$dir/time.$name" \
      "$bin" sweep "$spec" -j 2 -q "$@") >/dev/null 2>"$dir/err.$name" &
  else
    (ulimit -v $((limit * 1024)) && exec "$bin" sweep "$spec" -j 2 -q "$@") >/dev/null 2>"$dir/err.$name" &
  fi
  pid=$!
}

lines() { wc -l <"$1" | tr -d ' '; }

echo "| run | signal after s | lines when stopped | exit | peak RSS MiB | wall s |"
echo "|---|---:|---:|---:|---:|---:|"
start full -o "$dir/full.jsonl"
wait "$pid" || { echo "uninterrupted run failed: $(cat "$dir/err.full")"; exit 1; }
read -r rss wall <"$dir/time.full"
echo "| uninterrupted | - | - | 0 | $((rss / 1024)) | $wall |"

# Each stop comes after a quarter of the uninterrupted run's wall time, so
# three stops and the last, whole run cover the sweep at any machine load.
after=$(awk -v w="$wall" 'BEGIN { printf "%.2f", w / 4 }')
n=0
for sig in KILL TERM KILL; do
  n=$((n + 1))
  start "part$n" --resume -o "$dir/part.jsonl"
  sleep "$after"
  kill -s "$sig" "$pid" 2>/dev/null || true
  rc=0
  wait "$pid" || rc=$?
  if [ "$rc" -lt 128 ]; then # not ended by the signal: finished first, or refused
    echo "resume $n ended with exit $rc before its $sig: $(cat "$dir/err.part$n")"
    exit 1
  fi
  echo "| resume $n | $after ($sig) | $(lines "$dir/part.jsonl") | $rc | - | - |"
done
start last --resume -o "$dir/part.jsonl"
wait "$pid" || { echo "last resume failed: $(cat "$dir/err.last")"; exit 1; }
read -r rss wall <"$dir/time.last"
echo "| resume to the end | - | $(lines "$dir/part.jsonl") | 0 | $((rss / 1024)) | $wall |"
echo
if cmp -s "$dir/full.jsonl" "$dir/part.jsonl"; then
  echo "identical: $(lines "$dir/full.jsonl") lines, $(wc -c <"$dir/full.jsonl" | tr -d ' ') bytes," \
    "sha256 $(sha256sum "$dir/full.jsonl" | cut -c1-16)"
else
  echo "DIFFERENT: $(cmp "$dir/full.jsonl" "$dir/part.jsonl" 2>&1 | head -1)"
  exit 1
fi
