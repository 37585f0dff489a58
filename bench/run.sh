#!/bin/sh
# `make bench`: one run of the benchmark on this machine (not part of the
# tests).  Writes bench/results.md: solve vs exhaustive oracle vs closed form
# per problem, how each grows with the number of combinations, sweep
# throughput at -j 1 and -j 2, reuse hit rates, and what `tilefit sweep -j 2`
# itself reports on the shipped 5,000-point spec.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
BIN=${BIN:-./tilefit}
export TILEFIT_DATA="$PWD"
out=bench/results.md
"$BUILD/bench" "$out" bench/spec-5k.json "${BENCH_BUDGET:-0.3}"
# the engine: solve path vs oracle by counts and kept combinations, the whole
# process, --top K (also alone: make bench-engine, into bench/engine.md)
# (BENCH_SKIP_ENGINE=1 appends the bench/engine.md of an earlier run instead)
[ -n "${BENCH_SKIP_ENGINE:-}" ] || "$BUILD/bench-engine" bench/engine.md "${BENCH_MAX_KEPT:-1000000}" "${BENCH_BUDGET:-0.3}" "$BIN"
{ echo; sed -e 's/^## /### /' -e 's/^# Engine benchmark/## The engine (bench\/engine.md)/' bench/engine.md; } >> "$out"
# the solvers: exact search vs GLPK on the whole model vs the oracle
# (also alone: make bench-solvers, into bench/solvers.md; BENCH_SKIP_SOLVERS=1
# appends the bench/solvers.md of an earlier run instead)
[ -n "${BENCH_SKIP_SOLVERS:-}" ] || "$BUILD/bench-solvers" bench/solvers.md 100000 "${BENCH_BUDGET:-0.1}" 3
{ echo; sed -e 's/^## /### /' -e 's/^# Solvers: /## Solvers (bench\/solvers.md): /' bench/solvers.md; } >> "$out"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{
  echo
  echo "## The command line"
  echo
  echo "What \`tilefit sweep\` prints at the end (stderr), writing the JSONL to a file:"
  echo
  echo '```'
  for j in 1 2; do
    echo "\$ tilefit sweep bench/spec-5k.json -j $j -o out.jsonl"
    "$BIN" sweep bench/spec-5k.json -j "$j" -o "$tmp/out-$j.jsonl" 2>&1 | tail -n 1
  done
  echo '```'
  echo
  if cmp -s "$tmp/out-1.jsonl" "$tmp/out-2.jsonl"; then
    echo "The -j 1 and -j 2 outputs are identical ($(wc -l < "$tmp/out-1.jsonl") lines, $(wc -c < "$tmp/out-1.jsonl") bytes)."
  else
    echo "**The -j 1 and -j 2 outputs differ.**"
  fi
} >> "$out"
# Start-up and sweep throughput (medians, CPU time, instructions); with
# BASE=path/to/an/older/tilefit it compares against that build too.
{ echo; BIN="$BIN" sh bench/startup.sh; } >> "$out"
tail -n 12 "$out"
echo "bench: results in $out"
