#!/bin/sh
# The library names no command-line flag in a message or an error's place
# (model/core/error.h): it names a request field or command option by its
# key ("@top"), which each front end spells its own way.  This lists every
# string literal outside the command line (solver/cli/, solver/main.c)
# that holds a long flag of the option table (--top) or a short one on its
# own ("-m"), comments aside, but the pairs tests/lint/flags.allow lists
# (text for people that names what to type next), each of which must
# still occur.
flags=$(sed -n 's/^  X([a-z_]*, "[a-z_]*", "\([a-z-]*\)",.*/\1/p' solver/command_options.h model/input/request.h | grep . | sort -u)
status=0
for f in $(ls model/*/*.c encode/*.c solver/*.c solver/*/*.c | grep -v '^solver/cli/\|^solver/main.c$'); do
  # string literals of code lines (not comment lines), one per line
  lits=$(grep -n -v '^\s*\(/\*\|\*\|//\)' "$f" | sed 's/\/\*.*\*\///' | grep -o '^[0-9]*:\|"\([^"\\]\|\\.\)*"' |
         awk '/^[0-9]+:$/ { line = $0; next } { print line $0 }')
  for flag in $flags; do
    hit=$(printf '%s\n' "$lits" | grep -e "--$flag\([^a-z-]\|$\)" | head -1)
    allowed=$(grep -c "^$f --$flag\$" tests/lint/flags.allow)
    if [ -z "$hit" ] && [ "$allowed" -gt 0 ]; then
      echo "lint: $f no longer names --$flag: remove it from tests/lint/flags.allow" >&2
      status=1
    fi
    if [ -n "$hit" ] && [ "$allowed" -eq 0 ]; then
      echo "lint: $f:${hit%%:*} names the command-line flag --$flag (name the field or option: \"@KEY\", model/core/error.h)" >&2
      status=1
    fi
  done
  hit=$(printf '%s\n' "$lits" | grep -e ':"-[a-zA-Z]"$' | head -1)
  if [ -n "$hit" ]; then
    echo "lint: $f:${hit%%:*} names a short command-line flag ${hit#*:} (name the field or option: \"@KEY\")" >&2
    status=1
  fi
done
[ $status -eq 0 ] && echo "lint: no library message or error names a command-line flag ($(grep -c '^[a-z]' tests/lint/flags.allow) texts for people allowed: tests/lint/flags.allow)"
exit $status
