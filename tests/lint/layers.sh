#!/bin/sh
# Dependencies point one way (docs/design.md): solver/ -> encode/ -> model/,
# and inside model/ down the folders core <- expr <- input <- bind <- formats:
# a file includes only its own layer and the layers below it; solver/cli/,
# the command line, is above all of them.
rank() {
  case $1 in
    model/core) echo 1 ;; model/expr) echo 2 ;; model/input) echo 3 ;;
    model/bind) echo 4 ;; model/formats) echo 5 ;; encode) echo 6 ;; solver) echo 7 ;;
    *) echo 0 ;;
  esac
}
layer() { # the layer of a path: model/X for model's folders, else its top folder
  case $1 in model/*) echo "$1" | cut -d/ -f1-2 ;; *) echo "$1" | cut -d/ -f1 ;; esac
}
status=0
for f in model/*/*.[ch] encode/*.[ch] solver/*.[ch] solver/*/*.[ch]; do
  from=$(rank "$(layer "$f")")
  for inc in $(sed -n 's#^\#include "\(\(model\|encode\|solver\)/[^"]*\)".*$#\1#p' "$f"); do
    to=$(rank "$(layer "$inc")")
    if [ "$to" -gt "$from" ]; then
      echo "lint: $f includes $inc, a layer above its own (docs/design.md)" >&2
      status=1
    fi
  done
done
# the command line (solver/cli/) is the top: only main.c includes it
for f in $(ls model/*/*.[ch] encode/*.[ch] solver/*.[ch] solver/*/*.[ch] | grep -v '^solver/cli/\|^solver/main.c$'); do
  if grep -q '^#include "solver/cli/' "$f"; then
    echo "lint: $f includes the command line (solver/cli/), which only solver/main.c may" >&2
    status=1
  fi
done
exit $status
