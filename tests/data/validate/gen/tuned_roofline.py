#!/usr/bin/env python3
"""Runs every `tuned` case of tests/data/validate under `min time_us` put
first and, where the model's pick is not upstream's, says which roofline
term makes the model prefer its pick and by how much (docs/cost-model.md,
"Against the published tuned picks").

Per case: (1) the model's pick is the formula case with `min time_us` put
before the case's own objective (`tilefit validate`, as the earlier
measurement ran it); a workset without a shape has no time_us ("no
roofline").  (2) Upstream's pick is the case with its expect values pinned
(--fix, --place) and the same objectives for what the case leaves free.
Both picks are evaluated by `tilefit solve --json --explain` with every
value and placement pinned: the roofline's per-tile terms
($.explain.roofline: cycles, bound_by, terms) and the shape's lets
(time_ns, compute_ns, hbm_ns, cta_iterations, waves, mma_rate_0, and
fill_ns where the shape declares a fill), read as
objectives of that one point.  (3) One line per case: agree, or differ
with what the picks differ in, their time and binding term, the
difference (us and %) and the terms that decide it:
  - the same time_ns: no term tells them apart; the case's own objective
    breaks the tie;
  - the same max(compute_ns, hbm_ns) but not the same fill_ns (a shape
    with a fill, docs/cost-model.md): the occupancy, as a second CTA hides
    the wait before each CTA's main loop (the term that does not bind may
    differ: more CTAs at once share more through L2);
  - HBM binding either pick: both picks' hbm_ns and compute_ns (and the
    occupancies, where they differ: the CTAs resident at once share their
    operands through L2);
  - otherwise (compute_ns = cycles x cta_iterations x waves): the waves
    where they differ, a pick whose binding term is not its MMA (that term
    over the MMA term, per tile), and the MMA cycles per CTA (the tile's
    MMA term x its iterations); for an attention tile whose MMA cycles are
    in proportion to the K/V columns it computes, that is the last
    partial K/V block, cdiv(seqlen_k, B_c) x B_c columns (a backward's
    Q block: cdiv(seqlen_q, B_r) x B_r rows).
A pick of upstream's that does not fit the model says so, with the
solver's reason.

    python3 tests/data/validate/gen/tuned_roofline.py [--tilefit ./tilefit]

Reads nothing but the shipped case files and the tilefit binary."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tuned_latency import cases as tuned_cases  # noqa: E402  (the shared reader of the case files)

# the shape's lets, read as objectives of a fully pinned solve (one point: the order is irrelevant)
LETS = ("time_ns", "compute_ns", "hbm_ns", "cta_iterations", "waves", "mma_rate_0")
TERM = {"mma": "MMA-bound", "exp": "exp-bound", "smem": "smem-port bound", "hbm": "HBM-bound"}


def objectives(c):
    return ["min time_us"] + list(c.get("objective", []))


def solve(tool, c, fix, place, objs):
    """(answer, reason): the --json --explain answer, or None and why."""
    args = [tool, "solve", "-m", c["machine"], "-w", c["workset"], "--json", "--explain"]
    for k, v in c.get("params", {}).items():
        args += ["-p", "%s=%s" % (k, v)]
    for k, v in fix.items():
        args += ["--fix", "%s=%s" % (k, v)]
    for k, v in place.items():
        args += ["--place", "%s=%s" % (k, v)]
    for o in objs:
        args += ["--objective", o]
    r = subprocess.run(args, capture_output=True, text=True, check=False)
    a = json.loads(r.stdout) if r.stdout.strip() else {}
    if a.get("status") == "optimal":
        return a, ""
    why = a.get("reason") or r.stderr.strip().split("\n")[0]
    return None, why.split(": error: ")[-1]


def evaluate(tool, c, values, placement):
    """The roofline and shape lets at one pinned point."""
    a, why = solve(tool, c, values, placement, ["min " + n for n in LETS + ("fill_ns",)])
    if a is None and "'fill_ns'" in why:  # a shape without a fill: one CTA per SM
        a, why = solve(tool, c, values, placement, ["min " + n for n in LETS])
    if a is None:
        return None, why
    e = {"fill_ns": 0}
    e.update({o["objective"][4:]: o["value"] for o in a["objectives"]})
    e.update(a["explain"]["roofline"])
    e["time_bound_by"] = "hbm" if e["hbm_ns"] > e["compute_ns"] else e["bound_by"]  # the let, as a name
    e["values"], e["placement"], e["params"] = a["values"], a.get("placement", {}), a["params"]
    return e, ""


def upstream(tool, c):
    """Upstream's pick: the expect values pinned, the rest by the case's objectives."""
    fix = dict(c.get("fix", {}))
    place = dict(c.get("place", {}))
    for k, v in c["expect"].items():
        if k == "placement":
            place.update(v)
        else:
            fix[k] = v
    a, why = solve(tool, c, fix, place, objectives(c))
    if a is None:
        return None, why
    return evaluate(tool, c, a["values"], a.get("placement", {}))


def model(tool, c):
    """The model's pick and verdict, from `tilefit validate` of the formula case."""
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "case.jsonl")
        with open(p, "w") as f:
            f.write(json.dumps(dict(c, kind="formula", objective=objectives(c))) + "\n")
        r = subprocess.run([tool, "validate", "--jsonl", p], capture_output=True, text=True, check=False)
    rows = [json.loads(l) for l in r.stdout.splitlines() if l.strip()]
    if not rows:
        return None, r.stderr.strip().split(": ")[-1]
    return rows[0], ""


def pick(e, other):
    """The values and placements where pick e differs from the other, as text."""
    v = ["%s=%s" % kv for kv in e["values"].items() if other["values"].get(kv[0]) != kv[1]]
    v += ["%s:%s" % kv for kv in sorted(e["placement"].items()) if other["placement"].get(kv[0]) != kv[1]]
    return " ".join(v)


def us(e):
    return "%d us, %s" % (-(-e["time_ns"] // 1000), e["time_bound_by"])


def pct(a, b):
    return "+%.1f%%" % (100.0 * (a - b) / b)


def excess(who, e):
    """A pick whose binding term is not its MMA: by how much the term exceeds it."""
    t = e["terms"]
    return "%s tile is %s: %s %d > mma %d cycles per tile (%s)" % (
        who, TERM[e["bound_by"]], e["bound_by"], e["cycles"], t["mma"], pct(e["cycles"], t["mma"]))


def blocks(e, var, length):
    """An attention pick's rows or columns computed along `length`: cdiv(length, block) blocks of the block."""
    s, b = e["params"][length], e["values"][var]
    return -(-s // b), b, s


# The block each main-loop iteration steps over: a forward's K/V block over seqlen_k, a
# backward's Q block over seqlen_q (include/attention-shape.json, include/attention-bwd-shape.json).
STEPS = (("B_c", "seqlen_k", "K/V block", "columns"), ("B_r", "seqlen_q", "Q block", "rows"))


def padding(m, u, wm, wu):
    """The last partial block, where the MMA cycles per CTA are in proportion to what it computes."""
    if m["params"].get("causal"):
        return None
    for var, length, what, unit in STEPS:
        if var not in m["values"] or length not in m["params"] or m["values"][var] == u["values"].get(var):
            continue
        (nm, bm, s), (nu, bu, _) = blocks(m, var, length), blocks(u, var, length)
        if wu * nm * bm == wm * nu * bu:
            return "padding", "the last partial %s: cdiv(%d, %d) = %d blocks, %d %s vs %d x %d = %d (%s)" % (
                what, s, bu, nu, nu * bu, unit, nm, bm, nm * bm, pct(nu * bu, nm * bm))
    return None


def mma_work(m, u):
    """(category, text): why the MMA cycles per CTA differ (the iterations times the tile's MMA term)."""
    wm, wu = m["terms"]["mma"] * m["cta_iterations"], u["terms"]["mma"] * u["cta_iterations"]
    if wm == wu:
        return None
    if m["waves"] != u["waves"]:  # an SM runs one CTA of each wave: its MMA cycles are the waves' sum
        return "work", "MMA cycles per SM %d waves x %d x %d vs %d x %d x %d (%s)" % (
            u["waves"], u["cta_iterations"], u["terms"]["mma"], m["waves"], m["cta_iterations"], m["terms"]["mma"],
            pct(u["waves"] * wu, m["waves"] * wm))
    return padding(m, u, wm, wu) or ("work", "MMA cycles per CTA %d x %d vs %d x %d (%s)" % (
        u["cta_iterations"], u["terms"]["mma"], m["cta_iterations"], m["terms"]["mma"], pct(wu, wm)))


def cause(c, m, u):
    """(category, text): the terms that make the model prefer its pick m over upstream's u."""
    if m["time_ns"] == u["time_ns"]:
        return "tie", "the same time_ns %d, no roofline term tells them apart; %s breaks the tie" % (
            m["time_ns"], ", ".join(c.get("objective", ["the workset's objective"])))
    if m["fill_ns"] != u["fill_ns"] and max(m["compute_ns"], m["hbm_ns"]) == max(u["compute_ns"], u["hbm_ns"]):
        return "fill", ("the fill: fill_ns %d vs %d at occupancy %s vs %s, %s (%s; a second CTA hides a CTA's wait "
                        "before its main loop%s)") % (
            u["fill_ns"], m["fill_ns"], u["values"].get("occupancy", 1), m["values"].get("occupancy", 1),
            "compute_ns %d and hbm_ns %d both" % (m["compute_ns"], m["hbm_ns"])
            if (m["compute_ns"], m["hbm_ns"]) == (u["compute_ns"], u["hbm_ns"])
            else "compute_ns %d vs %d, hbm_ns %d vs %d" % (u["compute_ns"], m["compute_ns"], u["hbm_ns"], m["hbm_ns"]),
            "the same max(compute, hbm)", "" if u["values"].get("occupancy", 1) > 1
            else "; alone, each of the %d waves waits" % u["waves"])
    if "hbm" in (m["time_bound_by"], u["time_bound_by"]):
        ou, om = u["values"].get("occupancy", 1), m["values"].get("occupancy", 1)
        return "hbm", "hbm_ns %d vs %d, compute_ns %d vs %d%s" % (
            u["hbm_ns"], m["hbm_ns"], u["compute_ns"], m["compute_ns"], "" if ou == om else
            " at occupancy %d vs %d (the CTAs an SM holds at once share their tiles' operands through L2)" % (ou, om))
    parts, kind = [], "work"
    for who, e in (("upstream's", u), ("the model's", m)):
        if e["bound_by"] != "mma":
            parts.append(excess(who, e))
            kind = "bound"
    if m["bound_by"] == u["bound_by"] == "mma" and m["mma_rate_0"] == u["mma_rate_0"]:
        parts.insert(0, "MMA-bound at the same rate")
    w = mma_work(m, u)
    if w:
        parts.append(w[1])
        kind = w[0] if kind == "work" else kind
    return kind, "; ".join(parts)


def line(tool, c):
    """(category, text) for one case."""
    row, why = model(tool, c)
    if row is None or row["result"] == "error":
        return "none", "no roofline (%s: %s)" % (c["workset"], (why or row.get("error", "")).split(": ")[-1])
    if row["result"] == "agree":
        return "agree", "expected %s" % row["expected"]
    ans = row["answer"]
    m, why = evaluate(tool, c, ans["values"], ans.get("placement", {}))
    if m is None:
        return "error", "the model's pick does not evaluate: %s" % why
    u, why = upstream(tool, c)
    if u is None:
        return "unfit", "model %s (%s); upstream's %s does not fit the model: %s" % (
            row["derived"], us(m), row["expected"], why)
    kind, text = cause(c, m, u)
    if kind == "tie":
        return kind, "model %s, upstream %s (%s both): %s" % (pick(m, u), pick(u, m), us(m), text)
    return kind, "model %s (%s), upstream %s (%s): +%.1f us, %s; %s" % (
        pick(m, u), us(m), pick(u, m), us(u), (u["time_ns"] - m["time_ns"]) / 1000.0, pct(u["time_ns"], m["time_ns"]), text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tilefit", default="./tilefit")
    root = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", ".."))
    tool = os.path.abspath(ap.parse_args().tilefit)
    n = dict.fromkeys(("agree", "tie", "fill", "padding", "bound", "hbm", "work", "unfit", "error", "none"), 0)
    for c in tuned_cases(root):
        kind, text = line(tool, c)
        n[kind] += 1
        verdict = {"agree": "agree", "none": "-"}.get(kind, "differ")
        print("%-7s %-34s %s" % (verdict, c["id"], text))
    differ = sum(n.values()) - n["agree"] - n["none"]
    print("%d tuned cases: %d agree with min time_us first, %d in worksets without a roofline, %d differ:" %
          (sum(n.values()), n["agree"], n["none"], differ))
    print("  %d at the same time_ns (the case's own objective decides), %d by the fill (occupancy), %d by the last "
          "partial block, %d by a binding term other than the MMA, %d by HBM, %d by other MMA work, %d whose "
          "upstream pick does not fit, %d not evaluated" % (n["tie"], n["fill"], n["padding"], n["bound"], n["hbm"],
                                                            n["work"], n["unfit"], n["error"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
