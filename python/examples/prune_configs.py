"""Which Triton autotune configs fit an RTX 4090's shared memory: prune --json's
list, one dict per configuration, read back as Python.

    PYTHONPATH=PREFIX/lib/python3/dist-packages python3 prune_configs.py   (from the repository root)
"""
import tilefit

rows = tilefit.prune("tests/data/prune/triton-configs.jsonl", machine="rtx4090", workset="triton-matmul")
for r in rows[:6]:
    s = r["memories"]["smem"]
    print(r["where"], r["fits"], s["used"], s["capacity"])
