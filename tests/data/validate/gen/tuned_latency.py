#!/usr/bin/env python3
"""Runs every `tuned` case of tests/data/validate under the latency-hiding
objective and prints, per case, agree or differ (docs/cost-model.md,
"Against the published tuned picks").

Objective: a workset that declares its main-loop loads ($.roofline.loads)
is solved with `min time_us`, then `min stages`, subject to
`stages >= stages_needed` (the fewest stages that hide the global-load
latency by Little's law); a case whose needed count does not fit is solved
without the requirement (the most that fits: it is latency-bound).  Other
worksets keep `min time_us` before their own objective, as the previous
measurement did.  For each GEMM case the script also prints the latency
interval (in clocks) for which Little's law would give the published count:
stages = 1 + cdiv(L, c) holds for L in ((stages - 2) c, (stages - 1) c],
c = iteration_cycles.

    python3 tests/data/validate/gen/tuned_latency.py [--tilefit ./tilefit]

Reads nothing but the shipped case files and the tilefit binary."""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

LATENCY_WORKSETS = ("cutlass-sm80-gemm", "cutlass-sm90-gemm")


def cases(root):
    for path in sorted(glob.glob(os.path.join(root, "tests/data/validate/*.jsonl"))):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("//"):
                    c = json.loads(line)
                    if c.get("kind") == "tuned":
                        yield c


def run(tilefit, lines):
    """One validate run per case: a case whose objective names a let its
    workset lacks (time_us without a shape) stops a whole file."""
    rows = []
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "case.jsonl")
        for c in lines:
            with open(p, "w") as f:
                f.write(json.dumps(c) + "\n")
            r = subprocess.run([tilefit, "validate", "--jsonl", p], capture_output=True, text=True)
            got = [json.loads(l) for l in r.stdout.splitlines() if l.strip()]
            rows += got or [{"id": c["id"], "result": "error", "expected": "", "error": r.stderr.strip()}]
    return rows


def iteration_cycles(tilefit, c):
    args = [tilefit, "solve", "-m", c["machine"], "-w", c["workset"], "--explain", "--json"]
    for k, v in c.get("params", {}).items():
        args += ["-p", "%s=%s" % (k, v)]
    for k, v in c.get("fix", {}).items():
        args += ["--fix", "%s=%s" % (k, v)]
    out = subprocess.run(args, capture_output=True, text=True).stdout
    lat = json.loads(out).get("explain", {}).get("roofline", {}).get("latency") if out else None
    return lat


def latency_case(c, with_require):
    d = dict(c, kind="formula", objective=["min time_us", "min stages"])
    if with_require:
        d["require"] = list(c.get("require", [])) + ["stages >= stages_needed"]
    return d


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tilefit", default="./tilefit")
    a = ap.parse_args()
    root = os.path.dirname(os.path.abspath(__file__)) + "/../../../.."
    tuned = list(cases(root))
    own = [dict(c, kind="formula", objective=["min time_us"] + list(c.get("objective", []))) for c in tuned]
    lat = [latency_case(c, True) if c["workset"] in LATENCY_WORKSETS else o for c, o in zip(tuned, own)]
    before = {r["id"]: r["result"] for r in run(a.tilefit, own)}
    rows = {r["id"]: r for r in run(a.tilefit, lat)}
    # a needed count that does not fit: the most that fits (latency-bound)
    infeasible = [latency_case(c, False) for c in tuned if c["workset"] in LATENCY_WORKSETS and rows[c["id"]]["result"] != "agree" and rows[c["id"]].get("answer", {}).get("status") != "optimal"]
    for c in infeasible:
        c["objective"] = ["min time_us", "max stages"]
    for r in run(a.tilefit, infeasible):
        rows[r["id"]] = dict(r, latency_bound=True)
    agree = new = broken = 0
    spans = {"iteration_cycles": [], "compute_cycles": []}
    hidden = 0
    for c in tuned:
        r = rows[c["id"]]
        ok = r["result"] == "agree"
        was = before[c["id"]] == "agree"
        agree += ok
        new += ok and not was
        broken += was and not ok
        note = ""
        if c["workset"] in LATENCY_WORKSETS:
            l = iteration_cycles(a.tilefit, c)
            s = c["expect"].get("stages")
            if l and s:
                hidden += s >= l["stages_needed"]
                for k in spans:
                    spans[k].append(((s - 2) * l[k], (s - 1) * l[k]))
                it = l["iteration_cycles"]
                note = "needed %d (latency %d clk, %d clk/iteration); the published %d needs L in (%d, %d]" % (
                    l["stages_needed"], l["latency_clk"], it, s, max(0, (s - 2) * it), (s - 1) * it)
            if r.get("latency_bound"):
                note += "; needed count does not fit"
        elif r["result"] == "error":
            note = "not run: " + r["error"].split(": ")[-1]
        else:
            note = "no loads declared: min time_us, then its own objective"
        print("%-7s %-36s %-18s %-22s %s" % ("agree" if ok else "differ", c["id"], c["workset"],
                                             "expected " + r.get("expected", ""), note))
    print("%d of %d published GEMM stage counts are at or above stages_needed (not latency-bound in the model)"
          % (hidden, len(spans["compute_cycles"])))
    for k, v in spans.items():
        best = max(((sum(lo < hi_l <= hi for lo, hi in v), hi_l) for _, hi_l in v), default=(0, 0))
        print("with %s per iteration, the one latency that gives the most GEMM cases their published stages: "
              "L = %d clk, %d of %d" % (k, best[1], best[0], len(v)))
    print("%d of %d tuned cases agree (%d new, %d that agreed under min time_us and their own objective no longer do)"
          % (agree, len(tuned), new, broken))
    return 0


if __name__ == "__main__":
    sys.exit(main())
