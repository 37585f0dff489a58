#!/bin/sh
# Hidden state in the library, which runs in any number of threads at once
# (tf_call_json, the Python module, sweep workers): no strtok or other libc
# call that keeps state between calls, and no static local that is not
# const.  solver/cli/ is the command line's own (one thread) and exempt.
# Prints each offence by file and line; exits 1 if there is one.
set -u
files=$(ls model/*/*.c encode/*.c solver/*.c solver/*/*.c | grep -v '^solver/cli/')
bad=0
if grep -nE '\b(strtok|asctime|ctime|gmtime|localtime|rand|srand|drand48|lrand48|mrand48|getpwnam|getpwuid|setlocale|strsignal|getlogin|ttyname|ecvt|fcvt|gcvt|tmpnam)\(' $files; then
  echo "hidden_state: a libc call that keeps state between calls (use the _r form or no state)"
  bad=1
fi
# "static T name" inside a function: indented, not a function, not const
# (a const array of function pointers, "static void (*const f[])(...)", is const).
if grep -nE '^[[:space:]]+static[[:space:]]' $files | grep -vE '^[^:]+:[0-9]+:[[:space:]]+static[[:space:]]+(const[[:space:]]|[A-Za-z_][A-Za-z_0-9 ]*[[:space:]*]+const[[:space:]]|[A-Za-z_][A-Za-z_0-9 ]*\(\*const[[:space:]])'; then
  echo "hidden_state: a static local that is not const"
  bad=1
fi
exit $bad
