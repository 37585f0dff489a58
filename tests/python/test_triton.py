"""tilefit.triton.early_config_prune against the command line's prune, with
stand-ins for triton.Config and a tensor (Triton need not be installed)."""

import json
import os
import subprocess
import tempfile
import unittest

import tilefit
import tilefit.triton


class Config:
    """What triton.Config carries: kwargs and launch fields, None where unset."""

    def __init__(self, kwargs, num_stages, num_warps):
        self.kwargs = kwargs
        self.num_stages = num_stages
        self.num_warps = num_warps
        self.num_ctas = 1
        self.maxnreg = None
        self.pre_hook = None


class DType:
    def __init__(self, itemsize):
        self.itemsize = itemsize


class Tensor:
    def __init__(self, itemsize):
        self.dtype = DType(itemsize)


def tutorial(m, n, k, stages, warps):
    return Config({"BLOCK_SIZE_M": m, "BLOCK_SIZE_N": n, "BLOCK_SIZE_K": k, "GROUP_SIZE_M": 8}, stages, warps)


CONFIGS = [tutorial(128, 256, 64, 3, 8), tutorial(128, 256, 64, 5, 8), tutorial(64, 64, 32, 4, 4),
           tutorial(256, 256, 64, 4, 8)]


def cli_fits(machine, dt_bits, configs):
    tool = os.path.join(os.environ.get("TILEFIT_DATA", "."), "tilefit")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "c.jsonl")
        with open(path, "w") as f:
            for c in configs:
                f.write(json.dumps(tilefit.triton.config_dict(c)) + "\n")
        out = subprocess.run([tool, "prune", "-m", machine, "-w", "triton-matmul", "-p", "dt_bits=%d" % dt_bits,
                              path, "--json"], capture_output=True, text=True, check=True).stdout
    return [v["fits"] for v in json.loads(out)]


class EarlyConfigPrune(unittest.TestCase):
    def test_signature_and_the_command_line(self):
        prune = tilefit.triton.early_config_prune(machine="a100", dtype="float16")
        kept = prune(CONFIGS, {"a_ptr": Tensor(2)}, num_warps=None)
        want = [c for c, fits in zip(CONFIGS, cli_fits("a100", 16, CONFIGS)) if fits]
        self.assertEqual(kept, want)
        self.assertIn(CONFIGS[0], kept)      # (128 + 256) x 64 x 3 x 2 = 147456 <= 166912
        self.assertNotIn(CONFIGS[1], kept)   # x 5 = 245760
        self.assertNotIn(CONFIGS[3], kept)

    def test_dtype_from_named_args(self):
        prune = tilefit.triton.early_config_prune(machine="a100")
        kept8 = prune(CONFIGS, {"a_ptr": Tensor(1), "M": 4096})
        want = [c for c, fits in zip(CONFIGS, cli_fits("a100", 8, CONFIGS)) if fits]
        self.assertEqual(kept8, want)
        self.assertIn(CONFIGS[1], kept8)     # 8-bit: 122880 fits

    def test_dtype_names(self):
        self.assertEqual(tilefit.triton.dtype_bits("torch.bfloat16"), 16)
        self.assertEqual(tilefit.triton.dtype_bits("float8_e4m3fn"), 8)
        self.assertEqual(tilefit.triton.dtype_bits(DType(4)), 32)
        with self.assertRaises(ValueError):
            tilefit.triton.dtype_bits("complex128")


if __name__ == "__main__":
    unittest.main()
