#!/bin/sh
# Part of `make check` (check-install): install into a temporary prefix and
# use the installation from another directory, as a user would, without
# TILEFIT_DATA: a C program built with pkg-config, the Python module, the
# installed binary, the man page, bash completion; then uninstall.
# Run from the top of the tree; MAKE, CC and PYTHON come from make.
set -eu
MAKE=${MAKE:-make}
CC=${CC:-cc}
PYTHON=${PYTHON:-/usr/bin/python3}
TOP=$(pwd)
P=$(mktemp -d)
W=$(mktemp -d)
trap 'rm -rf "$P" "$W"' EXIT
unset TILEFIT_DATA TILEFIT_LIB || true
n=0
fail() { echo "check-install: FAIL: $*" >&2; exit 1; }
ok() { n=$((n + 1)); }

# The prefix is compiled in, so this installation has a build of its own.
INST="BUILD=build/install-test BIN=build/install-test/tilefit PREFIX=$P"
$MAKE --no-print-directory $INST install >"$W/make.log" 2>&1 || { cat "$W/make.log" >&2; fail "make install"; }

# The files, and a soname that is the link's name.
for f in bin/tilefit lib/libtilefit.a lib/libtilefit.so lib/pkgconfig/tilefit.pc include/tilefit/tilefit.h \
         share/tilefit/machines/b200.json share/tilefit/model/worksets/fa4-fwd.json share/man/man1/tilefit.1 \
         share/bash-completion/completions/tilefit lib/python3/dist-packages/tilefit/__init__.py \
         share/tilefit/validate/cutlass.jsonl share/tilefit/examples/head_dims.py share/tilefit/examples/solve.c; do
  [ -e "$P/$f" ] || fail "make install did not install $f"
done
soname=$(readlink "$P/lib/libtilefit.so")
[ -L "$P/lib/$soname" ] && [ -f "$P/lib/$(readlink "$P/lib/$soname")" ] || fail "lib/$soname is not a link to the library"
if command -v readelf >/dev/null; then
  readelf -d "$P/lib/$soname" | grep -q "SONAME.*\[$soname\]" || fail "the library's soname is not $soname"
fi
ls "$P/include/tilefit" | grep -qvx tilefit.h && fail "headers other than tilefit.h were installed"
sh "$TOP/tests/lint/public.sh" "$P/include/tilefit/tilefit.h" "$P/lib/$soname" >/dev/null ||
  fail "the installed library exports more than its header declares, or the header names cJSON"
ok

# A C program from another directory: pkg-config, the one header, the
# shared library found through LD_LIBRARY_PATH, the data through the
# directory compiled in.  The program is docs/library.md's example, as
# installed beside the Python ones.
cd "$W"
cmp -s "$P/share/tilefit/examples/solve.c" "$TOP/docs/examples/solve.c" || fail "the installed solve.c is not docs/examples/solve.c"
cp "$P/share/tilefit/examples/solve.c" prog.c
FLAGS=$(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --cflags --libs tilefit) || fail "pkg-config --cflags --libs tilefit"
# the header needs nothing of cJSON, so neither do a user's compile flags
case $(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --cflags tilefit) in
  *cjson*) fail "pkg-config --cflags tilefit names cJSON's directory" ;;
esac
ok
cc prog.c $FLAGS -o prog || fail "cc prog.c \$(pkg-config --cflags --libs tilefit)"
$CC -std=c11 -Wall -Wextra -pedantic -Werror prog.c $FLAGS -o prog || fail "$CC -std=c11 -pedantic -Werror prog.c"
LD_LIBRARY_PATH=$P/lib ./prog >out.txt || { cat out.txt >&2; fail "prog exited $?"; }
grep -qx 'fa4-fwd on b200: optimal, stages = 3' out.txt || { cat out.txt >&2; fail "prog: not 3 stages"; }
grep -qx '  smem           232448     232448          0  B' out.txt || { cat out.txt >&2; fail "prog: no text report"; }
grep -q '^JSON, [0-9]* bytes: {"schema":"tilefit/1","machine":"b200","workset":"fa4-fwd","status":"opt' out.txt ||
  { cat out.txt >&2; fail "prog: no JSON report"; }
grep -qx "status 2: workset: unknown workset 'fa5-fwd' .*" out.txt || { cat out.txt >&2; fail "prog: the error"; }
grep -q '^tilefit [0-9.]*, tf_call_json: {"version":"[0-9.]*"}$' out.txt || { cat out.txt >&2; fail "prog: tf_call_json"; }
# the installed header alone: no internal declaration is reachable from it
printf '#include <tilefit/tilefit.h>\nint main(void) { tf_solve_opts o; (void)o; return 0; }\n' > internal.c
$CC -std=c11 -c internal.c $FLAGS -o internal.o 2>/dev/null && fail "the installed header declares tf_solve_opts"
ok

# The static library links on its own: the program runs with no LD_LIBRARY_PATH.
$CC prog.c $(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --cflags tilefit) "$P/lib/libtilefit.a" \
  $(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --static --libs-only-l tilefit | sed 's/-ltilefit//') -o prog-static ||
  fail "linking prog.c with libtilefit.a"
./prog-static | grep -qx 'fa4-fwd on b200: optimal, stages = 3' || fail "prog linked statically"
ok

# TILEFIT_DATA still comes first: a B200 with 199680 B per CTA fits 2 stages.
mkdir -p data/machines
sed '10s/"capacity": 232448/"capacity": 199680/' "$P/share/tilefit/machines/b200.json" >data/machines/b200.json
grep -q '"capacity": 199680' data/machines/b200.json || fail "could not make the test machine"
TILEFIT_DATA=$W/data LD_LIBRARY_PATH=$P/lib ./prog >out2.txt || true
grep -qx 'fa4-fwd on b200: optimal, stages = 2' out2.txt && grep -q '^  smem  *[0-9]*     199680 ' out2.txt || { cat out2.txt >&2; fail "TILEFIT_DATA does not override"; }
ok

# Python, found through PYTHONPATH alone.
if [ -x "$PYTHON" ]; then
  got=$(PYTHONPATH=$P/lib/python3/dist-packages "$PYTHON" -c "import tilefit; print(tilefit.solve('b200', 'fa4-fwd', params={'d': 128, 'dv': 128}, fix={'B_r': 128, 'B_c': 128, 'q_stage': 2}, objective=['max stages'])['values']['stages'])") ||
    fail "python3 -c 'import tilefit; ...'"
  [ "$got" = 3 ] || fail "tilefit.solve from Python: $got stages, not 3"
  got=$(PYTHONPATH=$P/lib/python3/dist-packages "$PYTHON" -c "
import tilefit
p = tilefit.Problem(machine='h100-sxm', workset='fa3-fwd', params={'d': 128})
print(p.solve(explain=True)['explain']['levels'][0]['level'], tilefit.machine('b200')['file'],
      len(list(tilefit.sweep({'machines': ['h100-sxm'], 'worksets': ['fa3-fwd'], 'params': {'d': [64, 128]}}))))") ||
    fail "python3: Problem, machine, sweep"
  [ "$got" = "1 $P/share/tilefit/machines/b200.json 2" ] || fail "installed Python: $got"
  ok
else
  echo "check-install: Python skipped: $PYTHON is absent"
fi

# The installed binary finds its data beside itself.
"$P/bin/tilefit" solve -m b200 -w fa4-fwd -p d=128 -p dv=128 --fix B_r=128 --fix B_c=128 --fix q_stage=2 \
  --objective "max stages" --json | grep -q '"stages":3}' || fail "installed tilefit solve"
ok

# The installed validation cases run from another directory, as the docs show them.
"$P/bin/tilefit" validate "$P/share/tilefit/validate/cutlass.jsonl" >val.txt 2>&1 || { cat val.txt >&2; fail "validate of the installed cases"; }
grep -q ' passed, 0 failed' val.txt || fail "installed validate: $(tail -1 val.txt)"
ok

# The man page renders without warnings and has a section for every command.
MANWIDTH=80 man -l "$P/share/man/man1/tilefit.1" >man.txt 2>man.err || fail "man -l tilefit.1"
[ -s man.txt ] && [ ! -s man.err ] || { cat man.err >&2; fail "man -l tilefit.1 warns or prints nothing"; }
warn=$(groff -man -Tutf8 -ww -z "$P/share/man/man1/tilefit.1" 2>&1) || true
[ -z "$warn" ] || fail "groff warns: $warn"
commands=$("$P/bin/tilefit" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
[ -n "$commands" ] || fail "no commands in tilefit --help"
for c in $commands; do
  grep -qx "\.SS $c" "$P/share/man/man1/tilefit.1" || fail "the man page has no section for '$c'"
  grep -q "^   $c" man.txt || fail "man -l does not render the section for '$c'"
  # and every flag the command's --help names (as roff writes it: \- for -)
  for f in $("$P/bin/tilefit" "$c" --help | grep -oE -- '(^|[][[:space:],|])--?[a-zA-Z][-a-zA-Z]*' | sed 's/^[^-]*//' | sort -u); do
    grep -qF -- "$(echo "$f" | sed 's/-/\\-/g')" "$P/share/man/man1/tilefit.1" || fail "the man page does not name '$c $f'"
  done
done
ok

# The shipped data as found beside the binary, named without "bin/..".
"$P/bin/tilefit" solve -m b200 -w fa4-fwd --require 'stages >= 400' >/dev/null 2>err.txt && fail "stages >= 400 solved"
grep -qF "$P/share/tilefit/model/worksets/fa4-fwd.json: " err.txt || { cat err.txt >&2; fail "the workset's path is not PREFIX/share/tilefit/..."; }
grep -qF "/../" err.txt && { cat err.txt >&2; fail "a path with /../ in it"; }
ok

# Bash completion: commands, flags, names, variables and params.
complete_words() { # the words typed so far; the last is completed
  PATH=$P/bin:$PATH bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _tilefit; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$P/share/bash-completion/completions/tilefit" "$@"
}
expect_completion() { # WANT WORDS...: WANT must be among the completions
  want=$1; shift
  complete_words "$@" | grep -qx -- "$want" || fail "completing '$*' does not offer '$want' (offers: $(complete_words "$@" | tr '\n' ' '))"
}
expect_completion solve tilefit so
expect_completion --objective tilefit solve --obj
expect_completion --jobs tilefit sweep --jo
expect_completion b200 tilefit solve -m b
expect_completion fa4-fwd tilefit check -m b200 -w fa4
expect_completion d= tilefit solve -m b200 -w fa4-fwd -p ""
expect_completion B_r= tilefit solve -w fa4-fwd --fix B
expect_completion stages= tilefit check -w fa4-fwd --fix st
expect_completion h100-sxm tilefit machines h100
expect_completion map tilefit plot m
expect_completion --color tilefit plot map --col
expect_completion --by tilefit plot sweep --b
expect_completion B_c tilefit plot map -w fa4-fwd --x B
expect_completion P=smem tilefit solve -m h100-sxm -w fa3-fwd --place P
expect_completion Q=rf tilefit layout -w fa3-fwd --place Q=
expect_completion glpk tilefit solve --solver g
expect_completion cute-dsl tilefit emit --for cu
expect_completion solve tilefit help so
# what each command accepts, from its option table: no flag a command refuses
expect_no_completion() { # UNWANTED WORDS...
  unwanted=$1; shift
  ! complete_words "$@" | grep -qx -- "$unwanted" || fail "completing '$*' offers '$unwanted', which it refuses"
}
expect_no_completion --top tilefit prune --to
expect_no_completion --top tilefit check --to
expect_no_completion --top tilefit validate --to
expect_no_completion --lp tilefit sweep --l
[ -z "$(complete_words tilefit solve -m b200 -w fa4-fwd -p zz)" ] || fail "completing '-p zz' offers something"
# every flag completion offers, the command takes: --help lists it
for c in solve check layout emit machines worksets validate sweep merge prune probe "plot map" "plot sweep"; do
  for f in $(complete_words tilefit $c --); do
    "$P/bin/tilefit" $c --help | grep -qE -- "(^|[][[:space:],|])$f([][[:space:],|=]|\$)" || fail "completion offers '$c $f', which 'tilefit $c --help' does not list"
  done
done
ok

cd "$TOP"
$MAKE --no-print-directory $INST uninstall >"$W/make.log" 2>&1 || { cat "$W/make.log" >&2; fail "make uninstall"; }
left=$(find "$P" ! -type d)
[ -z "$left" ] || fail "make uninstall left: $left"
left=$(find "$P" -mindepth 1 -type d)
[ -z "$left" ] || fail "make uninstall left empty directories: $(echo $left)"
ok
# The tree's own build, whose prefix is gone now, finds the tree's data,
# not the deleted prefix's: the library looks beside itself first.
if [ -x "$PYTHON" ]; then
  got=$(cd "$W" && TILEFIT_LIB=$TOP/build/install-test/libtilefit.so PYTHONPATH=$TOP/python "$PYTHON" -c "import tilefit; print(tilefit.machine('b200')['file'])") ||
    fail "the tree's library after make uninstall"
  [ "$got" = "$TOP/machines/b200.json" ] || fail "the tree's library after make uninstall reads $got"
  ok
fi
echo "check-install: $n checks passed (prefix $P, from $W)"
