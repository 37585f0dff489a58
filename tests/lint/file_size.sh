#!/bin/sh
# A library source file holds one concern: at most 800 lines (the house's
# rule, CONTRIBUTING.md).  Prints each longer file and exits 1.
set -u
bad=0
for f in $(find model encode solver -name '*.[ch]' | sort); do
  n=$(wc -l < "$f")
  if [ "$n" -gt 800 ]; then
    echo "lint: $f has $n lines (at most 800: split it by concern)"
    bad=1
  fi
done
exit $bad
