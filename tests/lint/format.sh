#!/bin/sh
# The C sources follow .clang-format (LLVM's style, 120 columns; the file
# says which options differ).  Prints each file clang-format would change
# and exits 1; `make format` rewrites them.  The style is pinned to
# clang-format 14 (Debian 12's, which make deps installs): another major
# version formats some constructs differently, so there the check is
# skipped with a line that says so.
set -u
if ! command -v clang-format >/dev/null 2>&1; then
  echo "lint: clang-format is not installed (make deps installs it)" >&2
  exit 1
fi
major=$(clang-format --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
if [ "$major" != 14 ]; then
  echo "lint: format not checked: clang-format $major, the style is pinned to 14" >&2
  exit 0
fi
status=0
for f in $(find model encode solver tests bench -name '*.[ch]' | sort); do
  if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
    echo "lint: $f is not formatted as .clang-format says (make format)" >&2
    status=1
  fi
done
exit $status
