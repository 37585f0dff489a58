# Every Check test case sets its own timeout: Check's default of 4 s
# measures the machine's load, not a hang (the sanitizer build multiplies
# the timeouts by CK_TIMEOUT_MULTIPLIER).  Each "TCase *X = tcase_create"
# needs a "tcase_set_timeout(X," in the same file.  Prints FILE:LINE and
# exits 1 if one lacks it.  Usage: awk -f tests/lint/timeouts.awk tests/*.c
function flush(v) {
  for (v in made)
    if (!(v in set)) { print made[v] ": test case " v " has no tcase_set_timeout"; bad = 1 }
  split("", made); split("", set)
}
FNR == 1 { flush() }
/TCase \*[A-Za-z_0-9]+ = tcase_create/ { v = $0; sub(/.*TCase \*/, "", v); sub(/ .*/, "", v); made[v] = FILENAME ":" FNR }
/tcase_set_timeout\([A-Za-z_0-9]+,/ { v = $0; sub(/.*tcase_set_timeout\(/, "", v); sub(/,.*/, "", v); set[v] = 1 }
END { flush(); exit bad }
