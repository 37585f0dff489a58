#!/usr/bin/env python3
"""No call or include cycle between the library's files.

Calls: an edge a.c -> b.c wherever a.o refers to a symbol b.o defines (nm's
'U' against 'T', 'D', 'B' or 'R'), read from the objects of the build
folder given as the first argument, so a function pointer or a table counts
the same as a call. Includes: an edge a.h -> b.h wherever a header includes
another of the library's headers. A strongly connected component of more
than one file is a cycle; each is printed with the symbols (or includes)
behind its edges, and the exit status is 1.

usage: tests/lint/cycles.py BUILD_DIR
"""
import glob
import os
import re
import subprocess
import sys

LAYERS = ("model", "encode", "solver")


def components(nodes, edges):
    """Tarjan's strongly connected components, iteratively (no recursion
    limit), each of more than one node."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def call_graph(build):
    objs = sorted(o for d in LAYERS for o in glob.glob(os.path.join(build, d, "**", "*.o"), recursive=True))
    if not objs:
        sys.exit("lint: cycles: no objects under %s/{%s} (build the library first)" % (build, ",".join(LAYERS)))
    defs, uses = {}, {}
    for o in objs:
        name = os.path.relpath(o, build)[:-2] + ".c"
        uses[name] = set()
        out = subprocess.run(["nm", o], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TDBR":
                defs[parts[2]] = name
            elif len(parts) == 2 and parts[0] == "U":
                uses[name].add(parts[1])
    edges = {n: {} for n in uses}
    for n, syms in uses.items():
        for s in syms:
            d = defs.get(s)
            if d and d != n:
                edges[n].setdefault(d, []).append(s)
    return edges


def include_graph():
    heads = sorted(h for d in LAYERS for h in glob.glob(os.path.join(d, "**", "*.h"), recursive=True))
    edges = {h: {} for h in heads}
    for h in heads:
        with open(h, encoding="utf-8") as f:
            for inc in re.findall(r'^#include "([^"]+)"', f.read(), re.M):
                for c in (inc, os.path.normpath(os.path.join(os.path.dirname(h), inc))):
                    if c in edges:
                        edges[h].setdefault(c, []).append("#include")
                        break
    return edges


def report(kind, edges):
    bad = components(sorted(edges), {n: set(e) for n, e in edges.items()})
    for comp in bad:
        print("lint: a %s cycle between %d files: %s" % (kind, len(comp), " ".join(comp)), file=sys.stderr)
        inside = set(comp)
        for a in comp:
            for b in sorted(set(edges[a]) & inside):
                print("  %s -> %s: %s" % (a, b, " ".join(sorted(edges[a][b])[:4])), file=sys.stderr)
    return len(bad)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    n = report("call", call_graph(sys.argv[1])) + report("include", include_graph())
    sys.exit(1 if n else 0)


if __name__ == "__main__":
    main()
