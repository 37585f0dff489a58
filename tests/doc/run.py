#!/usr/bin/python3
"""The doc test: every `$ tilefit ...` example in README.md and docs/*.md is run
with the built binary and its output compared with the one the document shows.

    python3 tests/doc/run.py [--bin ./tilefit] [--list] [FILE.md...]
    python3 tests/doc/run.py --self-test
    python3 tests/doc/run.py --update FILE.md...   (rewrite full blocks; review the diff)

An example is a line `$ tilefit ARGS` (or `$ NAME=VALUE ... tilefit ARGS`) in a
code block (indented or fenced),
continued by lines ending in a backslash, followed by the output it prints:
every line up to the next `$ ` line, the end of the block, or the end of the
fence.  The command runs under /bin/sh (pipes work) in a scratch directory
that mirrors the repository root (every top-level entry linked, so relative
paths resolve as in a clone and `-o FILE` writes there), with `tilefit` on
PATH mapped to the built binary and TILEFIT_DATA=. (the mirrored root, so
messages name files as `./model/...`, the same in every clone).
The shown lines must equal what it prints exactly (trailing blanks aside):
its stdout, or its stdout followed by its stderr (results, then
diagnostics, as a terminal shows a command that reports at the end).  A last
shown line `(exit N)` is compared with the exit status.
An example whose command line says `(excerpt)` (e.g. `$ tilefit ... #
(excerpt)`) is checked as an ordered excerpt: every shown line must appear,
in this order, in the output; `...` lines only mark what was left out.
A fenced block right after a line `<!-- file: PATH -->` must be the text of
that file of the repository, byte for byte (so a quoted spec stays the one
shipped).  A code block right after a line `<!-- output: COMMAND -->` is
checked as that command's output, like an example (for what is not a
`tilefit` command line: a Python script; PYTHONPATH=python and TILEFIT_LIB set
to the built library).  Exit 0 when every example agrees, 1 when one differs (each difference is
printed), 2 on a malformed document or usage.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TIMEOUT = 60
EXIT = re.compile(r"^\(exit (\d+)\)$")
FENCE = re.compile(r"^\s*(```|~~~)")
QUOTE = re.compile(r"^<!-- file: (\S+) -->$")
OUTPUT = re.compile(r"^<!-- output: (.+) -->$")
COMMAND = re.compile(r"^\$ (?:[A-Za-z_][A-Za-z0-9_]*=\S* )*tilefit ")


class Example:
    def __init__(self, path, line, command, shown, excerpt, span=None, ind=0):
        self.path, self.line, self.command = path, line, command
        self.span, self.ind = span, ind      # output lines [a, b) of the file, their indent
        self.shown, self.excerpt = shown, excerpt
        self.status = None     # not compared unless the block shows it
        if shown and EXIT.match(shown[-1].strip()):
            self.status = int(EXIT.match(shown[-1].strip()).group(1))
            self.shown = shown[:-1]

    def where(self):
        return "%s:%d" % (os.path.relpath(self.path, ROOT), self.line)


def indent(s):
    return len(s) - len(s.lstrip(" "))


def block_end(lines, i, ind, fenced):
    """Index of the first line after the example output starting at line i."""
    j = i
    while j < len(lines):
        s = lines[j]
        if fenced and FENCE.match(s):
            break
        if s.strip() and (indent(s) < ind or s[ind:].startswith("$ ")):
            break
        if not s.strip() and not fenced:
            k = j
            while k < len(lines) and not lines[k].strip():
                k += 1
            if k == len(lines) or indent(lines[k]) < ind:
                break
        j += 1
    while j > i and not lines[j - 1].strip():
        j -= 1
    return j


def output_block(path, lines, i, cmd):
    """The example a `<!-- output: CMD -->` marker at line i makes of the next block."""
    j = i + 1
    while j < len(lines) and not lines[j].strip():
        j += 1
    if j == len(lines):
        sys.exit("%s:%d: an output marker not followed by a code block" % (path, i + 1))
    if FENCE.match(lines[j]):
        k = j + 1
        while k < len(lines) and not FENCE.match(lines[k]):
            k += 1
        ind, a, b, end = indent(lines[j]), j + 1, k, k + 1
    else:
        ind = indent(lines[j])
        if ind < 4:
            sys.exit("%s:%d: an output marker not followed by a code block" % (path, i + 1))
        a = j
        b = end = block_end(lines, j, ind, False)
    shown = [l[ind:].rstrip() for l in lines[a:b]]
    ex = Example(path, i + 1, cmd, shown, "(excerpt)" in cmd, (a, b), ind)
    ex.span_end = end
    ex.span = (a, b)
    return ex


def parse(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out, fenced, i = [], False, 0
    while i < len(lines):
        s = lines[i]
        m = OUTPUT.match(s.strip())
        if m and not fenced:
            ex = output_block(path, lines, i, m.group(1))
            out.append(ex)
            i = ex.span_end
            continue
        if FENCE.match(s):
            fenced = not fenced
            i += 1
            continue
        if not COMMAND.match(s.lstrip()) or (not fenced and indent(s) < 4):
            i += 1
            continue
        ind, start = indent(s), i + 1
        cmd = s[ind + 2:]
        while cmd.endswith("\\") and i + 1 < len(lines):
            i += 1
            cmd = cmd[:-1] + " " + lines[i].strip()
        end = block_end(lines, i + 1, ind, fenced)
        shown = [l[ind:].rstrip() for l in lines[i + 1:end]]
        excerpt = "(excerpt)" in cmd
        ex = Example(path, start, cmd, shown, excerpt, (i + 1, end), ind)
        if excerpt and not [l for l in ex.shown if l.strip() != "..."]:
            sys.exit("%s: an excerpt that shows no line" % ex.where())
        out.append(ex)
        i = end
    return out


def quoted_files(path):
    """(line, PATH, differs) for every file a document quotes."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out = []
    for i, s in enumerate(lines):
        m = QUOTE.match(s.strip())
        if not m:
            continue
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        k = j + 1
        while k < len(lines) and not FENCE.match(lines[k]):
            k += 1
        if j >= len(lines) or not FENCE.match(lines[j]) or k >= len(lines):
            sys.exit("%s:%d: a file marker not followed by a fenced block" % (path, i + 1))
        want = os.path.join(ROOT, m.group(1))
        try:
            with open(want, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            out.append((i + 1, m.group(1), "cannot be read: %s" % e.strerror))
            continue
        shown = "\n".join(lines[j + 1:k]) + "\n"
        out.append((i + 1, m.group(1), None if shown == text else "the block is not the file's text"))
    return out


def scratch(bindir_bin):
    d = tempfile.mkdtemp(prefix="tilefit-doc-")
    for name in os.listdir(ROOT):
        if name != ".git":
            os.symlink(os.path.join(ROOT, name), os.path.join(d, name))
    bindir = os.path.join(d, ".bin")
    os.mkdir(bindir)
    os.symlink(bindir_bin, os.path.join(bindir, "tilefit"))
    return d, bindir


def run(ex, cwd, bindir):
    env = dict(os.environ, TILEFIT_DATA=".", PATH=bindir + os.pathsep + os.environ.get("PATH", ""),
               PYTHONPATH=os.path.join(ROOT, "python"))
    env.setdefault("TILEFIT_LIB", os.path.join(ROOT, "build", "libtilefit.so"))
    try:
        p = subprocess.run(["/bin/sh", "-c", ex.command], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, "ran past %d s" % TIMEOUT
    out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    if out and not out.endswith("\n") and err:
        out += "\n"
    return p.returncode, (out, out + err)


def lines_of(text):
    got = [l.rstrip() for l in text.split("\n")]
    while got and not got[-1]:
        got.pop()
    return got


def compare(ex, status, texts):
    """None when the example agrees, else a description of the difference.
    texts: (stdout, stdout then stderr); a full block may show either."""
    if status is None:
        return texts
    if ex.status is not None and status != ex.status:
        return "exit %d, the document says %d" % (status, ex.status)
    got = lines_of(texts[1])
    if not ex.excerpt:
        if ex.shown in (lines_of(texts[0]), got):
            return None
        for n, (a, b) in enumerate(zip(ex.shown, got)):
            if a != b:
                return "line %d: shown %r, printed %r" % (n + 1, a, b)
        return "shown %d lines, printed %d" % (len(ex.shown), len(got))
    k = 0
    for want in ex.shown:
        if want.strip() == "...":
            continue
        while k < len(got) and got[k] != want:
            k += 1
        if k == len(got):
            return "excerpt line %r not printed (in this order)" % want
        k += 1
    return None


def update(path, fixes):
    """Rewrite the output of each (example, status, texts) in fixes into path."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for ex, status, texts in sorted(fixes, key=lambda x: -x[0].span[0]):
        got = lines_of(texts[1])
        if status:
            got.append("(exit %d)" % status)
        a, b = ex.span
        lines[a:b] = [(" " * ex.ind + l) if l else "" for l in got]
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


def demo_shown(examples):
    """The command `make demo` runs must be an example of README.md, so that
    the README's demo block is the demo's output.  None when it is."""
    with open(os.path.join(ROOT, "Makefile"), encoding="utf-8") as f:
        make = f.read()
    m = re.search(r"^demo:.*\n(?:\t.*\n)*?\t\./\$\(BIN\) (.*)$", make, re.M)
    if not m:
        return "Makefile: the demo target runs no ./$(BIN) command"
    if not any(ex.command.split(" # ")[0].strip() == "tilefit " + m.group(1).strip() for ex in examples):
        return "README.md shows no example of what make demo runs: tilefit %s" % m.group(1)
    return None


def check(paths, binary, listing=False, rewrite=False):
    examples = [ex for p in paths for ex in parse(p)]
    readme = os.path.join(ROOT, "README.md")
    demo = demo_shown([ex for ex in examples if ex.path == readme]) if readme in paths else None
    if listing:
        for ex in examples:
            print("%s: %s%s" % (ex.where(), ex.command, " (excerpt)" if ex.excerpt else ""))
        return 0
    cwd, bindir = scratch(binary)
    bad, fixes = (1 if demo else 0), {}
    if demo:
        print(demo)
    for p in paths:
        for line, name, why in quoted_files(p):
            if why:
                bad += 1
                print("%s:%d: %s: %s" % (os.path.relpath(p, ROOT), line, name, why))
    try:
        for ex in examples:
            status, text = run(ex, cwd, bindir)
            why = compare(ex, status, text)
            if why and rewrite and not ex.excerpt and status is not None:
                fixes.setdefault(ex.path, []).append((ex, status, text))
                print("%s: $ %s\n  rewritten (%s)" % (ex.where(), ex.command, why))
            elif why:
                bad += 1
                print("%s: $ %s\n  %s" % (ex.where(), ex.command, why))
    finally:
        shutil.rmtree(cwd)
    for path, fx in fixes.items():
        update(path, fx)
    print("doc test: %d examples in %d files, %d differ" % (len(examples), len(paths), bad))
    return 1 if bad else 0


def default_paths():
    docs = os.path.join(ROOT, "docs")
    names = sorted(n for n in os.listdir(docs) if n.endswith(".md")) if os.path.isdir(docs) else []
    return [os.path.join(ROOT, "README.md")] + [os.path.join(docs, n) for n in names]


SELF = [
    # (document, expected exit of the checker)
    ("(a true block, and the same block one character off)", None),
    ("    $ tilefit slove\n    tilefit: error: slove: unknown command; did you mean 'solve'? (see 'tilefit --help')\n", 0),
    ("    $ tilefit slove\n    tilefit: error: slove: unknown command; did you mean 'solve'? (see 'tilefit --help')\n    (exit 1)\n", 1),
    ("    $ tilefit slove\n    tilefit: error: slove: unknown command; did you mean 'solve'? (see 'tilefit --help')\n    (exit 2)\n", 0),
    ("    $ tilefit slove\n    tilefit: error: slove: unknown command; did you mean 'solve'?\n    (exit 2)\n", 1),
    ("    $ tilefit worksets | cut -d' ' -f1 # (excerpt)\n    ...\n    fa4-fwd\n    fa2-fwd\n", 1),
    ("    $ tilefit worksets | cut -d' ' -f1 # (excerpt)\n    fa2-fwd\n    ...\n    fa4-fwd\n", 0),
    ("    $ tilefit worksets | cut -d' ' -f1 # (excerpt)\n    no-such-workset\n", 1),
    ("```\n$ tilefit slove\ntilefit: error: slove: unknown command; did you mean 'solve'? (see 'tilefit --help')\n(exit 2)\n```\n", 0),
    ("```\n$ tilefit slove\ntilefit: error: slove: unknown command\n(exit 2)\n```\n", 1),
    ("    $ tilefit slove\n    tilefit: error: slove: unknown command; did you mean 'solve'? (see 'tilefit --help')\n    (exit 2)\n"
     "    $ tilefit sovle\n    tilefit: error: sovle: unknown command\n    (exit 2)\n", 1),
    ("    $ tilefit worksets \\\n        | cut -d' ' -f1 # (excerpt)\n    fa4-fwd\n", 0),
    ("    $ tilefit worksets \\\n        | cut -d' ' -f1 # (excerpt)\n    fa4-fwd-x\n", 1),
    ("<!-- file: tests/data/sweep/small.json -->\n```json\n{}\n```\n", 1),
    ("<!-- output: echo one; echo two -->\n```\none\ntwo\n```\n", 0),
    ("<!-- output: echo one; echo two -->\n\n    one\n    three\n", 1),
    ("<!-- output: echo one; exit 3 -->\n\n    one\n    (exit 3)\n", 0),
]


def self_test(binary):
    """The checker fails on a stale example and passes on a true one."""
    d = tempfile.mkdtemp(prefix="tilefit-doc-self-")
    bad = 0
    try:
        usage = subprocess.run([binary, "machines", "--help"], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT).stdout.decode().split("\n")[0]
        for n, (doc, want) in enumerate(SELF):
            if want is None:     # a true block, then the same block with one character changed
                doc = "    $ tilefit machines --help | head -1\n    %s\n" % usage
                cases = [(doc, 0), (doc.replace(usage, usage[:-1] + "X"), 1)]
            else:
                cases = [(doc, want)]
            for m, (text, expect) in enumerate(cases):
                path = os.path.join(d, "case%d-%d.md" % (n, m))
                with open(path, "w") as f:
                    f.write("A document.\n\n" + text)
                devnull = open(os.devnull, "w")
                saved, sys.stdout = sys.stdout, devnull
                try:
                    got = check([path], binary)
                finally:
                    sys.stdout = saved
                    devnull.close()
                if got != expect:
                    bad += 1
                    print("doc self-test: case %d.%d gave %d, expected %d:\n%s" % (n, m, got, expect, text))
    finally:
        shutil.rmtree(d)
    print("doc self-test: %s" % ("failed" if bad else "the checker passes true examples and fails stale ones"))
    return 1 if bad else 0


def main(argv):
    binary, paths, listing, selftest, rewrite = os.path.join(ROOT, "tilefit"), [], False, False, False
    args = iter(argv)
    for a in args:
        if a == "--bin":
            binary = os.path.abspath(next(args, ""))
        elif a == "--list":
            listing = True
        elif a == "--self-test":
            selftest = True
        elif a == "--update":
            rewrite = True
        elif a.startswith("-"):
            sys.exit("usage: run.py [--bin BINARY] [--list] [--self-test] [--update FILE.md...] [FILE.md...]")
        else:
            paths.append(os.path.abspath(a))
    if not os.access(binary, os.X_OK):
        sys.exit("doc test: %s is not an executable (run make first)" % binary)
    if selftest:
        return self_test(binary)
    if rewrite and not paths:
        sys.exit("run.py --update: name the files to rewrite")
    return check(paths or default_paths(), binary, listing, rewrite)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
