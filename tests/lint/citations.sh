#!/bin/sh
# Citations a clone can follow: no tracked file may point at the reference
# notes this repository was written from (files outside it), at design
# notes it does not have, at their section numbers, or at tracker issues.
# Cite upstream (repo @ commit : file : line) or a file in this repository
# (docs/NAME.md).  A section of an upstream document is written "sec. N".
#
#   sh tests/lint/citations.sh      (make lint runs it; exit 1 on a hit)
#
# A cited docs/NAME.md must exist; inside docs/, a relative link NAME.md to
# one of those names is allowed when docs/NAME.md exists.
self=tests/lint/citations.sh
notes='placement|kernels-2|cutlass|cutlass-variants|flashattention|machines|worksets|style'
# (bracketed letters: this line must not itself be a citation it forbids)
pat="\\.\\./[s]hared/|[s]hared/reference|DESIG[N]\\.md|§ ?[0-9]|\\\\u00a7|[Ii]ssue [0-9]+|docs/[A-Za-z0-9_.-]+\\.md|($notes)\\.md"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  list() { git ls-files; }
else
  list() { find . -type f ! -path './build/*' ! -path './.git/*' | sed 's|^\./||'; }
fi
list | grep -v -x "$self" | tr '\n' '\0' | xargs -0 grep -n -o -I -E -- "$pat" 2>/dev/null |
awk -F: '
  function exists(p) { return system("test -f \"" p "\"") == 0 }
  {
    file = $1; line = $2; hit = substr($0, length(file) + length(line) + 3)
    if (hit ~ /^docs\//) {
      if (exists(hit)) next
      why = "there is no such file"
    } else if (hit ~ /\.md$/ && hit !~ /DESIGN/ && file ~ /^docs\// && exists("docs/" hit)) {
      next
    } else
      why = "a clone cannot follow it; cite upstream (repo @ commit : file : line) or docs/"
    printf "%s:%s: cites \"%s\": %s\n", file, line, hit, why
    bad = 1
  }
  END { exit bad }'
