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


class NamedDType(DType):
    def __init__(self, name, itemsize):
        super().__init__(itemsize)
        self.name = name

    def __str__(self):
        return "torch." + self.name


class Tensor:
    def __init__(self, itemsize, name=None):
        self.dtype = NamedDType(name, itemsize) if name else DType(itemsize)


def tutorial(m, n, k, stages, warps):
    return Config({"BLOCK_SIZE_M": m, "BLOCK_SIZE_N": n, "BLOCK_SIZE_K": k, "GROUP_SIZE_M": 8}, stages, warps)


CONFIGS = [tutorial(128, 256, 64, 3, 8), tutorial(128, 256, 64, 5, 8), tutorial(64, 64, 32, 4, 4),
           tutorial(256, 256, 64, 4, 8)]


def cli_fits(machine, dt_bits, configs, fp8=None):
    tool = os.path.join(os.environ.get("TILEFIT_DATA", "."), "tilefit")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "c.jsonl")
        with open(path, "w") as f:
            for c in configs:
                f.write(json.dumps(tilefit.triton.config_dict(c)) + "\n")
        extra = [] if fp8 is None else ["-p", "fp8=%d" % fp8]
        out = subprocess.run([tool, "prune", "-m", machine, "-w", "triton-matmul", "-p", "dt_bits=%d" % dt_bits]
                             + extra + [path, "--json"], capture_output=True, text=True, check=True).stdout
    return [v["fits"] for v in json.loads(out)]


class EarlyConfigPrune(unittest.TestCase):
    def test_signature_and_the_command_line(self):
        prune = tilefit.triton.early_config_prune(machine="a100", dtype="float16")
        kept = prune(CONFIGS, {"a_ptr": Tensor(2)}, num_warps=None)
        want = [c for c, fits in zip(CONFIGS, cli_fits("a100", 16, CONFIGS)) if fits]
        self.assertEqual(kept, want)
        self.assertIn(CONFIGS[0], kept)      # (128 + 256) x 64 x 2 B x 2 buffers (num_stages - 1) = 98304 <= 166912
        self.assertNotIn(CONFIGS[1], kept)   # x 4 buffers = 196608
        self.assertNotIn(CONFIGS[3], kept)

    def test_dtype_from_named_args(self):
        prune = tilefit.triton.early_config_prune(machine="a100")
        kept8 = prune(CONFIGS, {"a_ptr": Tensor(1, "int8"), "M": 4096})
        want = [c for c, fits in zip(CONFIGS, cli_fits("a100", 8, CONFIGS, fp8=0)) if fits]
        self.assertEqual(kept8, want)
        self.assertIn(CONFIGS[1], kept8)     # int8: 4 A/B buffers of 24576 B = 98304 fits
        # fp8 does not compile below sm_89: nothing is kept on an A100, and on an H100 it is
        self.assertEqual(prune(CONFIGS, {"a_ptr": Tensor(1, "float8_e4m3fn")}), [])
        kept_h100 = tilefit.triton.early_config_prune(machine="h100-sxm")(CONFIGS, {"a_ptr": Tensor(1, "float8_e4m3fn")})
        self.assertIn(CONFIGS[1], kept_h100)

    def test_dtype_names(self):
        self.assertEqual(tilefit.triton.dtype_bits("torch.bfloat16"), 16)
        self.assertEqual(tilefit.triton.dtype_bits("float8_e4m3fn"), 8)
        self.assertEqual(tilefit.triton.dtype_bits(DType(4)), 32)
        with self.assertRaises(ValueError):
            tilefit.triton.dtype_bits("complex128")


if __name__ == "__main__":
    unittest.main()
