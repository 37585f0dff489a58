#!/bin/sh
# The installed <tilefit/tilefit.h>: solver/tilefit.h with every header it
# includes with quotes put in its place, each once, in include order, so
# that the one installed file is complete on its own and the internal
# headers (args.h, sweep_internal.h, ...) are not installed.  Angle-bracket
# includes (<stdio.h>) stay.  A quoted include is looked up beside the file
# that has it, then from the top of the tree, as the compiler does with -I.
#   usage: sh dist/public-header.sh solver/tilefit.h > build/include/tilefit/tilefit.h
set -e
[ $# = 1 ] || { echo "usage: $0 ROOT_HEADER" >&2; exit 2; }
awk -v root="$1" '
function exists(path,   line, r) {
  r = (getline line < path) >= 0
  close(path)
  return r
}
function dir_of(path) { return sub(/\/[^\/]*$/, "", path) ? path : "." }
function emit(file,   line, name, near) {
  if (file in seen)
    return
  seen[file] = 1
  while ((getline line < file) > 0) {
    if (line ~ /^#include "/) {
      name = line
      sub(/^#include "/, "", name)
      sub(/".*$/, "", name)
      near = dir_of(file) "/" name
      if (exists(near))
        emit(near)
      else if (exists(name))
        emit(name)
      else {
        printf "public-header.sh: %s: cannot find \"%s\"\n", file, name > "/dev/stderr"
        failed = 1
        exit 1
      }
    } else {
      print line
    }
  }
  close(file)
}
BEGIN {
  print "/* Generated from " root " by dist/public-header.sh; edit the headers it names. */"
  emit(root)
  exit failed
}'
