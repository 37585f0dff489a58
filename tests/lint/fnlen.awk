# Functions longer than MAX (default 60) body lines, in the C files given:
# a definition starts at column 0, its body is everything between the line
# that ends in "{" and the "}" at column 0.  Prints FILE:LINE: N lines: and
# exits 1 if any.  Usage: awk -f tests/lint/fnlen.awk model/*/*.c ...
BEGIN { if (!MAX) MAX = 60 }
FNR == 1 { head = 0; open = 0 }
!open && !head && /^[A-Za-z_].*\(/ && !/;[ \t]*$/ && !/^(typedef|#)/ { head = FNR; name = $0 }
!open && head && /\{[ \t]*$/ { open = FNR; next }
!open && head && (/;[ \t]*$/ || /^[ \t]*$/) { head = 0 }
open && /^\}/ {
  n = FNR - open - 1
  if (n > MAX) { printf "%s:%d: %d lines: %s\n", FILENAME, head, n, name; bad = 1 }
  head = 0; open = 0
}
END { exit bad }
