#!/usr/bin/env python3
"""Runs the CUTLASS stage-count `tuned` cases of tests/data/validate with
two CTAs per SM allowed and preferred, and prints, per case, agree or
differ (docs/cost-model.md, "Against the published tuned picks").

Objective: `--domain occupancy=1,2`, then `max occupancy`, then
`max stages`: the most stages that still let two CTAs share an SM (the
SM's shared memory and registers halved, as occupancy charges them),
else the most that fit one.

    python3 tests/data/validate/gen/tuned_occupancy.py [--tilefit ./tilefit]

Reads nothing but the shipped case files and the tilefit binary."""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tuned_latency import cases as tuned_cases  # noqa: E402  (the shared reader of the case files)

STAGE_WORKSETS = ("cutlass-sm80-gemm", "cutlass-sm90-gemm")


def cases(root):
    return (c for c in tuned_cases(root) if c["workset"] in STAGE_WORKSETS)


def solve(tool, case):
    args = [tool, "solve", "-m", case["machine"], "-w", case["workset"], "--json", "--domain", "occupancy=1,2",
            "--objective", "max occupancy", "--objective", "max stages"]
    for key, flag in (("params", "-p"), ("fix", "--fix")):
        for name, value in case.get(key, {}).items():
            args += [flag, "%s=%s" % (name, value)]
    out = subprocess.run(args, capture_output=True, text=True, check=False).stdout
    values = json.loads(out).get("values", {}) if out else {}
    return values.get("stages"), values.get("occupancy")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tilefit", default="./tilefit")
    root = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", ".."))
    tool = os.path.abspath(ap.parse_args().tilefit)
    agree = total = 0
    for case in cases(root):
        want = case["expect"]["stages"]
        got, occupancy = solve(tool, case)
        total += 1
        agree += got == want
        print("%-7s %-36s expected stages=%-3s got %s at occupancy %s" %
              ("agree" if got == want else "differ", case["id"], want, got, occupancy))
    print("%d of %d CUTLASS stage-count tuned cases agree with two CTAs per SM preferred" % (agree, total))


if __name__ == "__main__":
    main()
