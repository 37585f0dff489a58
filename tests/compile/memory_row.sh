#!/bin/sh
# A memory kind is one TF_MEMORIES row that names its rules
# (model/input/memory_kind.h): a row whose rules are not written must not
# compile.  This compiles model/input/memory_kind.c three times against a
# copy of its header: as it is (it must compile, or the test proves
# nothing), with a row `dsmem` whose rules are missing (it must fail,
# naming them), and with that row and its rules (it must compile again).
# Usage: sh tests/compile/memory_row.sh [CC]
cc=${1:-cc}
dir=$(mktemp -d "${TMPDIR:-/tmp}/tilefit-memrow-XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT INT TERM
mkdir -p "$dir/model/input"
hdr=model/input/memory_kind.h
src=model/input/memory_kind.c

build() { # $1: the header to use, $2: the source; output in $dir/log
  cp "$1" "$dir/$hdr"
  "$cc" -std=c11 -fsyntax-only -I"$dir" -I. -D_DEFAULT_SOURCE "$2" >"$dir/log" 2>&1
}
with_row() { # the header with one more row after rf's
  sed 's|^\(  X(RF, .*\)$|\1 \\\n  X(DSMEM, "dsmem", "B", dsmem)|' "$hdr" >"$dir/new.h"
  grep -q 'X(DSMEM' "$dir/new.h" || { echo "memory_row: could not add a row to $hdr" >&2; exit 1; }
}

if ! build "$hdr" "$src"; then
  cat "$dir/log" >&2; echo "memory_row: $src does not compile as it is" >&2; exit 1
fi
with_row
if build "$dir/new.h" "$src"; then
  echo "memory_row: a TF_MEMORIES row without its rules compiled" >&2; exit 1
fi
if ! grep -q 'dsmem_kind' "$dir/log"; then
  cat "$dir/log" >&2; echo "memory_row: the error does not name the missing rules" >&2; exit 1
fi
# the same row with its rules written compiles
sed 's|^/\* The kind table, a row per TF_MEMORIES row.*|static const memory_kind dsmem_kind = {"distributed shared memory", "dsmem", 0, smem_per_cta, smem_per_sm, smem_footprint, NULL, "bytes"};\n&|' \
  "$src" >"$dir/with_rules.c"
if ! build "$dir/new.h" "$dir/with_rules.c"; then
  cat "$dir/log" >&2; echo "memory_row: a row with its rules does not compile" >&2; exit 1
fi
echo "memory_row: a TF_MEMORIES row without its rules does not compile; with them it does"
