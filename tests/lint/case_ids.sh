#!/bin/sh
# Every shipped validation case has an id of its own: validate's rows are
# named by id, and two cases with one id make a failure ambiguous.
dups=$(grep -ho '^{"id": *"[^"]*"' tests/data/validate/*.jsonl | sed 's/^{"id": *//' | sort | uniq -d)
if [ -n "$dups" ]; then
  echo "lint: validation case ids used more than once in tests/data/validate:" >&2
  echo "$dups" | head -20 >&2
  exit 1
fi
