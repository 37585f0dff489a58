#!/bin/sh
# The public surface: the installed header has no cJSON in it (no include,
# no type) and includes only the C library's headers; the shared library
# exports exactly the functions that header declares (dist/declared.awk),
# each name starting with tf_ and each declaration with a comment of its
# own (or in a commented group).  Run by `make symbols` on the build and
# by the install test on the installation.
#   usage: sh tests/lint/public.sh HEADER LIBTILEFIT.so
set -eu
[ $# = 2 ] || { echo "usage: $0 HEADER LIBRARY" >&2; exit 2; }
header=$1 lib=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
if grep -n 'cJSON\|cjson/' "$header"; then
  echo "public: $header names cJSON (above)" >&2
  exit 1
fi
if grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$header"; then
  echo "public: $header includes a header of the tree (above)" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk -f "$top/dist/declared.awk" "$header" > "$tmp/decls"
undocumented=$(awk '$3 == 0 { printf " %s (line %s)", $1, $2 }' "$tmp/decls")
[ -z "$undocumented" ] || { echo "public: $header declares without a comment:$undocumented" >&2; exit 1; }
awk '{ print $1 }' "$tmp/decls" | sort -u > "$tmp/declared"
nm -D --defined-only "$lib" | awk 'NF == 3 { print $3 }' | sort -u > "$tmp/exported"
extra=$(comm -23 "$tmp/exported" "$tmp/declared")
[ -z "$extra" ] || { echo "public: $lib exports what $header does not declare:" $extra >&2; exit 1; }
absent=$(comm -13 "$tmp/exported" "$tmp/declared")
[ -z "$absent" ] || { echo "public: $header declares what $lib does not export:" $absent >&2; exit 1; }
grep -v '^tf_' "$tmp/exported" && { echo "public: $lib exports names without tf_ (above)" >&2; exit 1; }
grep -qx tf_call_json "$tmp/exported" || { echo "public: $lib does not export tf_call_json" >&2; exit 1; }
echo "public: $lib exports $(wc -l < "$tmp/exported") symbols, each declared and documented in $header ($(wc -l < "$header") lines); no cJSON in it"
