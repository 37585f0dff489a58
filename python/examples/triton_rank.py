"""The Triton matmul tutorial's autotune configs ranked by triton-matmul's
time on an H100 at 4096^3 FP16, as tilefit.triton's perf_model sorts them
for Triton's autotuner (Triton itself is not needed: a stand-in Config
carries what triton.Config does).

    PYTHONPATH=PREFIX/lib/python3/dist-packages python3 triton_rank.py   (from the repository root)
"""
import json

import tilefit.triton


class Config:
    """kwargs, num_stages and num_warps, as triton.Config has them."""

    def __init__(self, kwargs, num_stages, num_warps):
        self.kwargs, self.num_stages, self.num_warps = kwargs, num_stages, num_warps


with open("tests/data/prune/triton-tutorial-cuda.jsonl") as f:
    configs = [Config(c["kwargs"], c["num_stages"], c["num_warps"]) for c in map(json.loads, f)]
problem = {"M": 4096, "N": 4096, "K": 4096}  # the launch's named arguments, as Triton passes them
for i, r in enumerate(tilefit.triton.rank(configs, problem, machine="h100-sxm", dtype="float16")[:6]):
    c = r["config"]
    tile = "%dx%dx%d" % (c.kwargs["BLOCK_SIZE_M"], c.kwargs["BLOCK_SIZE_N"], c.kwargs["BLOCK_SIZE_K"])
    print(i + 1, tile, "stages", c.num_stages, "warps", c.num_warps, "%.3f us" % (r["time_ns"] / 1000), r["bound"],
          "occupancy", r["occupancy"])
