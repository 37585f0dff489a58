#!/usr/bin/env python3
"""make check-cutlass-domain: every tile of a CUTLASS 3.x workset's domain, compiled.

For each combination of the workset's choose domain that tilefit solves
(`--fix` every tile variable, the workset's default objective), the code
`tilefit emit --for cutlass` writes is compiled twice in one translation
unit: as emitted (tilefit's stage count) and with the stage count replaced
by the builder's own, StageCountAutoCarveout<sizeof(the epilogue's
SharedStorage)>.  The host program prints both stage counts and both
kernels' sizeof(GemmKernel::SharedStorage); nothing is launched.

A row fails when tilefit's kernel does not build or its SharedStorage is
over the machine's opt-in limit.  A stage count other than the builder's
is reported, not failed: a workset may refuse a count the builder picks
because its kernel does not fit (the table's `auto SharedStorage` says).

  W M ARCH [-p K=V ...]   one workset on one machine (nvcc arch, e.g. sm_100a)
  --doc FILE              with no W: every PLAN workset of check.py, the
                          table written between FILE's check-cutlass-domain markers

Needs nvcc and CUTLASS_DIR as check.py does; without them it says so and exits 0.
"""
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check  # noqa: E402  (the emit, compile and limit helpers)

AUTO = ("cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>("
        "sizeof(typename CollectiveEpilogue::SharedStorage))>")


def tiles(workset, machine, params):
    """(tile text, tilefit's stage count, proved bytes, emitted code) per tile tilefit answers."""
    with open(os.path.join(check.ROOT, "model/worksets/%s.json" % workset)) as f:
        choose = json.load(f)["choose"]
    out = []
    for vals in itertools.product(*choose.values()):
        fixes = [x for n, v in zip(choose, vals) for x in ("--fix", "%s=%d" % (n, v))]
        code, _ = check.emit("cutlass", ["-m", machine, "-w", workset, *params, *fixes])
        m = code and (re.search(r"StageCount<(\d+)>", code) or re.search(r"// (\d+) stages", code))
        if m:
            out.append(("x".join(str(v) for v in vals), int(m.group(1)), check.proved_smem(code), code))
    return out


def unit(rows):
    """One .cu: namespace t<i> as emitted, a<i> with the builder's stage count; main prints both."""
    body, main = [check.HEAD_3X], ["int main() {"]
    for i, (_, _, _, code) in enumerate(rows):
        plain = "\n".join(l for l in code.splitlines() if not l.startswith("//"))
        auto = re.sub(r"cutlass::gemm::collective::StageCount(AutoCarveout<[^;]*?\)>|<\d+>)", AUTO, plain)
        body.append("namespace t%d {\n%s\n}\nnamespace a%d {\n%s\n}\n" % (i, plain, i, auto))
        main.append('  std::printf("%d %%d %%zu %%d %%zu\\n", int(t%d::CollectiveMainloop::DispatchPolicy::Stages), '
                    "sizeof(typename t%d::GemmKernel::SharedStorage), int(a%d::CollectiveMainloop::DispatchPolicy::Stages), "
                    "sizeof(typename a%d::GemmKernel::SharedStorage));" % (i, i, i, i, i))
    return "".join(body) + "\n".join(main) + "\n  return 0;\n}\n"


def compile_run(nvcc, arch, rows, work):
    """{row index: (stages, smem, auto stages, auto smem)}, or None when the unit does not build."""
    src, exe = os.path.join(work, "d.cu"), os.path.join(work, "d")
    with open(src, "w") as f:
        f.write(unit(rows))
    r = subprocess.run([nvcc, "-std=c++17", "-arch=" + arch, "-O0", "--expt-relaxed-constexpr",
                        "-I" + os.path.join(os.environ["CUTLASS_DIR"], "include"), src, "-o", exe],
                       capture_output=True, text=True)
    if r.returncode:
        first = next((l for l in r.stderr.splitlines() if "error" in l), r.stderr.strip()[:200])
        return None, re.sub(r"^.*?include/", "include/", first.strip())
    out = subprocess.run([exe], capture_output=True, text=True).stdout
    return {int(f[0]): tuple(int(x) for x in f[1:]) for f in (l.split() for l in out.splitlines())}, ""


def check_one(nvcc, workset, machine, arch, params, work):
    """Table rows and the number of failures for one workset on one machine."""
    rows, limit = tiles(workset, machine, params), check.optin(machine)
    got, err = compile_run(nvcc, arch, rows, work)
    if got is None:  # one tile breaks the unit: compile them one by one to say which
        got = {}
        for i, row in enumerate(rows):
            one, err = compile_run(nvcc, arch, [row], work)
            got[i] = one[0] if one else err
    lines, bad = [], 0
    for i, (tile, stages, proved, _) in enumerate(rows):
        res = got[i]
        if isinstance(res, str):
            bad += 1
            lines.append("| %s | %s | %s | %d | %s | **no**: `%s` |  |  |" % (workset, machine, tile, stages, proved, res[:120]))
            continue
        s, smem, auto, auto_smem = res
        over = smem > limit
        bad += over or s != stages
        lines.append("| %s | %s | %s | %d | %s | yes | %d / %d%s | %d%s, %d B%s |" % (
            workset, machine, tile, stages, proved, smem, limit, " **over**" if over else "",
            auto, "" if auto == stages else " (differs)", auto_smem, " **over**" if auto_smem > limit else ""))
    return lines, bad, len(rows)


def main(argv):
    nvcc = os.environ.get("NVCC") or "/usr/local/cuda/bin/nvcc"
    cutlass = os.environ.get("CUTLASS_DIR", "")
    if not os.access(nvcc, os.X_OK) or not os.path.isfile(
            os.path.join(cutlass, "include/cutlass/gemm/collective/collective_builder.hpp")):
        print("check-cutlass-domain: needs nvcc (NVCC) and CUTLASS_DIR at %s; skipped" % check.COMMIT[:8],
              file=sys.stderr)
        return 0
    doc = argv[argv.index("--doc") + 1] if "--doc" in argv else None
    args = [a for a in argv if a != "--doc" and a != doc]
    plan = [(args[0], args[1], args[2], args[3:])] if args else [
        (w, m, a, []) for w, ms in check.PLAN if w != "cutlass-sm80-gemm" for m, a in ms]
    table = ["| workset | machine | tile | tilefit stages | proved B | builds | SharedStorage / opt-in B | "
             "builder's stages, its SharedStorage |", "|---|---|---|---:|---:|---|---|---|"]
    bad = total = 0
    with tempfile.TemporaryDirectory(prefix="tilefit-domain.") as work:
        for workset, machine, arch, params in plan:
            lines, b, n = check_one(nvcc, workset, machine, arch, params, work)
            print("%s %s: %d tiles, %d failed" % (workset, machine, n, b), file=sys.stderr, flush=True)
            table += lines
            bad, total = bad + b, total + n
    text = "\n".join(table) + "\n\n%d tiles compiled twice (nvcc %s, CUTLASS %s); %d failed.\n" % (
        total, check.nvcc_version(nvcc), check.COMMIT[:8], bad)
    if not args:
        text = "Run here with nvcc %s (no GPU) against CUTLASS %s, the default params of each workset:\n\n%s" % (
            check.nvcc_version(nvcc), check.COMMIT[:8], text)
    print(text)
    if doc:
        check.write_doc(doc, text, "check-cutlass-domain")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
