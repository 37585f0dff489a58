"""A researcher's loop: FlashAttention's best tiles and K/V stages per GPU
and head dimension, as the workset's own objectives rank them, printed as a
table from the dicts tilefit.solve returns.

    PYTHONPATH=PREFIX/lib/python3/dist-packages python3 head_dims.py
"""
import tilefit

KERNELS = [("b200", "fa4-fwd"), ("h100-sxm", "fa3-fwd"), ("a100", "fa2-fwd")]
HEAD_DIMS = [64, 128, 256]

print("%-9s %-8s %4s %4s %4s %7s %14s" % ("gpu", "kernel", "d", "B_r", "B_c", "stages", "smem used"))
for gpu, kernel in KERNELS:
    for d in HEAD_DIMS:
        r = tilefit.solve(gpu, kernel, params={"d": d})
        if r["status"] != "optimal":
            print("%-9s %-8s %4d  %s" % (gpu, kernel, d, r["reason"]))
            continue
        v, smem = r["values"], r["memories"]["smem"]
        print("%-9s %-8s %4d %4d %4d %7d %7d/%6d" % (gpu, kernel, d, v["B_r"], v["B_c"], v["stages"],
                                                     smem["used"], smem["capacity"]))
