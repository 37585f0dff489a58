#!/usr/bin/env python3
"""make check-cutlass: what `tilefit emit --for cutlass` writes, compiled against CUTLASS.

For each shipped CUTLASS workset emit writes (cutlass-sm80-gemm's 2.x
device::GemmUniversal, the 3.x CollectiveBuilder kernels of the others) on
the machines below: the default answer, the `min time_us` answer, the top 5
of the default objective, and for the 3.x worksets a few of the names in
tests/data/cutlass/emit-names.txt (emit --cutlass-name).  Each distinct
kernel becomes a complete .cu (the emitted builders, kernel type and
adapter, a host function that initializes and runs it, and a main that
prints sizeof(GemmKernel::SharedStorage)), compiled by nvcc with -Xptxas -v
against a CUTLASS checkout, and run on the host to print its shared storage
(nothing is launched: no GPU is needed).  Recorded: builds, registers,
spill bytes, SharedStorageSize against the machine's opt-in limit.

Every answer tilefit calls legal must build without spills and within the
limit; the exit status is 1 when one does not (the table says which).

Needs nvcc (NVCC, default nvcc on PATH or /usr/local/cuda/bin/nvcc) and a
CUTLASS checkout at the commit the worksets cite (CUTLASS_DIR; docs/emit.md
says how to get one); without either it says so and exits 0.
  --doc FILE   write the table into FILE between its check-cutlass markers
  --quick      one answer per workset and machine (the default answer)
  --only W     only workset W (or "names" for the --cutlass-name answers)
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

COMMIT = "7107b05535f8977f5ecb9d01ee203205b1fd9bc4"
BIN = os.environ.get("TILEFIT_BIN", "./tilefit")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the repository

# workset -> [(machine, nvcc arch)]: one machine of each architecture the
# workset models (others of the same architecture and SMEM capacity bind
# the same rules; docs/emit.md lists them).
PLAN = [
    ("cutlass-sm80-gemm", [("a100", "sm_80"), ("rtx4090", "sm_89"), ("h100-sxm", "sm_90")]),
    ("cutlass-sm90-gemm", [("h100-sxm", "sm_90a")]),
    ("cutlass-sm100-gemm", [("b200", "sm_100a")]),
    ("cutlass-sm100-gemm-blockscaled", [("b200", "sm_100a")]),
    ("cutlass-sm120-gemm", [("rtx5090", "sm_120a")]),
    ("cutlass-sm120-gemm-blockscaled", [("rtx5090", "sm_120a")]),
]
# FlashAttention-2's forward traits (FA2_DIR: a flash-attention checkout
# with its csrc/cutlass submodule), emitted by emit --for fa
PLAN_FA2 = [("fa2-fwd", [("a100", "sm_80"), ("rtx4090", "sm_89")])]
FA2_COMMIT = "0251105a2fb19d2957484b7f023cd8c115286ced"
# names (from tests/data/cutlass/emit-names.txt) compiled as --cutlass-name answers
NAMES = [
    "cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x256x64_2x1x1_0_ntn_align8_warpspecialized_cooperative_epi_tma",
    "cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_64x128x64_1x2x1_0_nnn_align8_warpspecialized_pingpong_epi_tma",
    "cutlass3x_sm90_tensorop_gemm_e4m3_e4m3_f32_bf16_bf16_128x128x128_1x2x1_0_tnn_align16_warpspecialized_cooperative_epi_tma",
    "cutlass3x_sm90_tensorop_gemm_tf32_tf32_f32_f32_f32_64x128x32_2x1x1_0_tnn_align4_warpspecialized_pingpong_epi_tma",
    "cutlass3x_sm100_tensorop_gemm_bf16_bf16_f32_bf16_bf16_256x128x64_2x1x1_0_ntn_align8_2sm",
]
NAME_ARCH = {"sm90": ("h100-sxm", "sm_90a"), "sm100": ("b200", "sm_100a")}

# Kernels that build but spill for a reason outside the model, documented
# in docs/emit.md: (nvcc arch, a string of the emitted code) -> why.  Their
# rows say so and do not fail the check; anything else that spills does.
DOCUMENTED = [
    ("sm_120a", ["cutlass::gemm::KernelTmaWarpSpecializedPingpong\n"],
     "SM120 pingpong spills 208 B at every tile compiled: docs/emit.md"),
    ("sm_100a", ["cutlass::epilogue::NoSmemWarpSpecialized1Sm\n", "cute::Shape<cute::_128, cute::_128, "],
     "the no-smem epilogue of an unnamed 128x128 1SM answer: docs/emit.md"),
]


def documented(arch, code):
    return next((why for a, texts, why in DOCUMENTED if a == arch and all(t in code for t in texts)), None)


HEAD_3X = """#include <cstdio>
#include "cutlass/cutlass.h"
#include "cute/tensor.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
"""
HEAD_2X = """#include <cstdio>
#include "cutlass/cutlass.h"
#include "cutlass/gemm/device/gemm_universal.h"
#include "cutlass/epilogue/thread/linear_combination.h"
"""
HEAD_FA2 = """#include <cstdio>
#include "kernel_traits.h"
"""
# FA2: only the traits compile without PyTorch's headers (the kernel's
# launch template includes c10 and ATen): the traits' layouts, copies and
# TiledMma on the device, and kSmemSize, the dynamic smem the launch asks for
TAIL_FA2 = """
__global__ void tilefit_traits(int *out) {
  typename Kernel_traits::TiledMma mma;
  typename Kernel_traits::GmemTiledCopyQKV copy;
  out[threadIdx.x] = Kernel_traits::kSmemSize + int(cute::size(mma)) + int(cute::size(copy)) +
                     int(cute::cosize(typename Kernel_traits::SmemLayoutKV{}));
}

int main() {
  std::printf("SharedStorageSize %d\\n", Kernel_traits::kSmemSize);
  return 0;
}
"""
TAIL = """
// the host instantiation: initialize and run (never called here)
cutlass::Status tilefit_run(typename Gemm::Arguments const &args, void *workspace) {
  Gemm gemm;
  cutlass::Status s = gemm.initialize(args, workspace);
  return s == cutlass::Status::kSuccess ? gemm.run() : s;
}

int main() {
  std::printf("SharedStorageSize %zu\\n", sizeof(typename GemmKernel::SharedStorage));
  return 0;
}
"""


def tilefit(*args):
    r = subprocess.run([BIN, *args], capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def answers(workset, machine, quick):
    """(what, fixes) of the default, min time_us and top 5 answers: every value and placement."""
    def fixes(a):
        return [x for k, v in a["values"].items() for x in ("--fix", "%s=%d" % (k, v))] + \
            [x for k, v in a.get("placement", {}).items() for x in ("--place", "%s=%s" % (k, v))]
    out = []
    runs = [("default", []), ("min time_us", ["--objective", "min time_us"])]
    for what, extra in runs[:1] if quick else runs:
        rc, text, err = tilefit("solve", "-m", machine, "-w", workset, "--json", *extra)
        out.append((what, fixes(json.loads(text))) if rc == 0 else (what + ": " + err.strip().splitlines()[-1], None))
    if not quick:
        rc, text, err = tilefit("solve", "-m", machine, "-w", workset, "--top", "5", "--json")
        for a in json.loads(text) if rc == 0 else []:
            out.append(("top %d" % a["rank"], fixes(a)))
    return out


def emit(target, args):
    rc, text, err = tilefit("emit", "--for", target, *args)
    return text if rc == 0 else None, err.strip()


def kernel_key(code):
    """The code without its provenance comments: two answers with one kernel compile once."""
    return "\n".join(l for l in code.splitlines() if not l.startswith("//"))


def ptxas(err):
    """(registers, spill bytes) of the GEMM kernel: the largest among the cutlass kernels ptxas reports."""
    regs = spill = 0
    for block in re.split(r"ptxas info\s+: Function properties for ", err)[1:]:
        name = block.split()[0]
        if "device_kernel" not in name and "Kernel" not in name and "tilefit_traits" not in name:
            continue
        s = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", block)
        r = re.search(r"Used (\d+) registers", block)
        if s:
            spill = max(spill, int(s.group(1)) + int(s.group(2)))
        if r:
            regs = max(regs, int(r.group(1)))
    return regs, spill


def compile_one(nvcc, includes, arch, code, kind, work):
    src = os.path.join(work, "k.cu")
    exe = os.path.join(work, "k")
    head, tail = {"2x": (HEAD_2X, TAIL), "3x": (HEAD_3X, TAIL), "fa2": (HEAD_FA2, TAIL_FA2)}[kind]
    with open(src, "w") as f:
        f.write(head + code + tail)
    cmd = [nvcc, "-std=c++17", "-arch=" + arch, "-O3", "-DNDEBUG", "--expt-relaxed-constexpr",
           *["-I" + i for i in includes], "-Xptxas", "-v", src, "-o", exe]
    t = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True)
    secs = time.time() - t
    if r.returncode:
        first = next((l for l in r.stderr.splitlines() if "error" in l), r.stderr.strip()[:200])
        return {"builds": False, "error": re.sub(r"^.*?include/", "include/", first.strip()), "secs": secs}
    regs, spill = ptxas(r.stderr)
    run = subprocess.run([exe], capture_output=True, text=True)
    m = re.search(r"SharedStorageSize (\d+)", run.stdout)
    return {"builds": True, "regs": regs, "spill": spill, "smem": int(m.group(1)) if m else -1, "secs": secs}


def optin(machine):
    rc, text, _ = tilefit("machines", machine, "--json")
    fields = {f["field"]: f["value"] for f in json.loads(text)["fields"]}
    return fields["smem.capacity"]


def cases(quick, only, fa2):
    """(workset, machine, arch, what, emit args, kind) for every answer to compile."""
    out = []
    plan = [(w, m, "2x" if w == "cutlass-sm80-gemm" else "3x") for w, m in PLAN]
    for workset, machines, kind in plan + ([(w, m, "fa2") for w, m in PLAN_FA2] if fa2 else []):
        if only and only != workset:
            continue
        for machine, arch in machines:
            for what, fixes in answers(workset, machine, quick):
                args = ["-m", machine, "-w", workset, *fixes] if fixes else None
                out.append((workset, machine, arch, what, args, kind))
    for name in [] if quick or only not in (None, "names") else NAMES:
        machine, arch = NAME_ARCH[name.split("_")[1]]
        out.append(("--cutlass-name", machine, arch, name.replace("cutlass3x_", ""), ["--cutlass-name", name], "3x"))
    return out


def row(c, tile, proved, result, limit):
    head = "| %s | %s | %s | %s | %s | %s |" % (*c[:4], tile, proved)
    if result is None:
        return head + " not emitted |  |  |  |"
    if not result["builds"]:
        return head + " **no**: `%s` |  |  |  |" % result["error"][:140]
    over = result["smem"] > limit
    spill = "%d (%s)" % (result["spill"], result["why"]) if result.get("why") else "%d" % result["spill"]
    return head + " yes | %s | %s | %d / %d%s |" % (result["regs"] if c[5] != "fa2" else "—", spill, result["smem"],
                                                    limit, " **over**" if over else "")


def tile_of(code):
    fa = re.search(r"Flash_fwd_kernel_traits<(\d+), (\d+), (\d+), (\d+)", code)
    if fa:
        return "d %s, %sx%s, %s warps" % fa.groups()
    m = re.search(r"GemmShape<(\d+), (\d+), (\d+)>", code) or re.search(
        r"cute::Shape<cute::_(\d+), cute::_(\d+), cute::_(\d+)>", code)
    s = re.search(r"(\d+),\s+// stages", code) or re.search(r"// (\d+) stages", code)
    return "%sx%sx%s, %s stages" % (m.group(1), m.group(2), m.group(3), s.group(1) if s else "?")


def proved_smem(code):
    m = re.search(r"proved to fit: smem (\d+) of", code)
    return m.group(1) if m else "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--doc")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--only")
    o = ap.parse_args()
    nvcc = os.environ.get("NVCC") or shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    cutlass = os.environ.get("CUTLASS_DIR", "")
    if not os.access(nvcc, os.X_OK):
        print("check-cutlass: no nvcc (set NVCC); skipped", file=sys.stderr)
        return 0
    if not cutlass or not os.path.isfile(os.path.join(cutlass, "include/cutlass/gemm/collective/collective_builder.hpp")):
        print("check-cutlass: no CUTLASS checkout (set CUTLASS_DIR to NVIDIA/cutlass @ %s; docs/emit.md); skipped"
              % COMMIT, file=sys.stderr)
        return 0
    fa2 = os.environ.get("FA2_DIR", "")
    fa2_includes = [os.path.join(fa2, "csrc/flash_attn/src"), os.path.join(fa2, "csrc/cutlass/include")]
    if not fa2 or not os.path.isfile(os.path.join(fa2_includes[0], "kernel_traits.h")):
        print("check-cutlass: no FlashAttention checkout (FA2_DIR, Dao-AILab/flash-attention @ %s with its "
              "csrc/cutlass submodule): FA2 skipped" % FA2_COMMIT[:8], file=sys.stderr)
        fa2 = ""
    includes = {"2x": [os.path.join(cutlass, "include")], "3x": [os.path.join(cutlass, "include")],
                "fa2": fa2_includes}
    rows, bad, seen, limits = [], 0, {}, {}
    with tempfile.TemporaryDirectory(prefix="tilefit-cutlass.") as work:
        for c in cases(o.quick, o.only, fa2):
            workset, machine, arch, what, args, kind = c
            limit = limits.setdefault(machine, optin(machine))
            code, err = emit("fa" if kind == "fa2" else "cutlass", args) if args else (None, what)
            if code is None:
                rows.append(row(c, "", "", None, limit))
                print("not emitted: %s %s %s: %s" % (workset, machine, what, err), file=sys.stderr)
                bad += 1
                continue
            key = (arch, kernel_key(code))
            if key not in seen:
                seen[key] = compile_one(nvcc, includes[kind], arch, code, kind, work)
            res = dict(seen[key])
            why = documented(arch, code) if res["builds"] and res["spill"] else None
            ok = res["builds"] and (res["spill"] == 0 or why) and res["smem"] <= limit
            bad += not ok
            res["why"] = why
            rows.append(row(c, tile_of(code), proved_smem(code), res, limit))
            print("%-5s %s %s %s (%.0f s)" % ("ok" if ok else "FAIL", workset, machine, what, res["secs"]),
                  file=sys.stderr, flush=True)
    table = ["| workset | machine | arch | answer | tile, stages | tilefit smem B | builds | registers | spill bytes | "
             "SharedStorage / opt-in B |", "|---|---|---|---|---|---|---|---|---|---|"] + rows
    text = "\n".join(table) + "\n\n%d answers, %d kernels compiled (nvcc %s, CUTLASS %s); %d failed.\n" % (
        len(rows), len(seen), nvcc_version(nvcc), COMMIT[:8], bad)
    print(text)
    if o.doc:
        write_doc(o.doc, text)
    return 1 if bad else 0


def nvcc_version(nvcc):
    r = subprocess.run([nvcc, "--version"], capture_output=True, text=True)
    m = re.search(r"release ([\d.]+)", r.stdout)
    return m.group(1) if m else "?"


def write_doc(path, text, name="check-cutlass"):
    begin, end = "<!-- %s: begin -->" % name, "<!-- %s: end -->" % name
    with open(path) as f:
        doc = f.read()
    if begin not in doc or end not in doc:
        sys.exit("%s: %s has no %s ... %s markers" % (name, path, begin, end))
    head, rest = doc.split(begin, 1)
    _, tail = rest.split(end, 1)
    with open(path, "w") as f:
        f.write(head + begin + "\n" + text + end + tail)


if __name__ == "__main__":
    sys.exit(main())
