#!/bin/sh
# The public surface: the installed header has no cJSON in it (no include,
# no type), and the shared library defines for others exactly what that
# header declares, every name starting with tf_.  Run by `make symbols` on
# the build and by the install test on the installation.
#   usage: sh tests/lint/public.sh HEADER LIBTILEFIT.so
set -eu
[ $# = 2 ] || { echo "usage: $0 HEADER LIBRARY" >&2; exit 2; }
header=$1 lib=$2
if grep -n 'cJSON\|cjson/' "$header"; then
  echo "public: $header names cJSON (above)" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -o 'tf_[A-Za-z0-9_]*' "$header" | sort -u > "$tmp/declared"
nm -D --defined-only "$lib" | awk 'NF == 3 { print $3 }' | sort -u > "$tmp/exported"
extra=$(comm -23 "$tmp/exported" "$tmp/declared")
if [ -n "$extra" ]; then
  echo "public: $lib exports what $header does not declare:" $extra >&2
  exit 1
fi
grep -qx tf_call_json "$tmp/exported" || { echo "public: $lib does not export tf_call_json" >&2; exit 1; }
echo "public: $lib exports $(wc -l < "$tmp/exported") symbols, each declared in $header; no cJSON in it"
