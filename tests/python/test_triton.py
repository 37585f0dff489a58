"""tilefit.triton.early_config_prune against the command line's prune, with
stand-ins for triton.Config and a tensor (Triton need not be installed)."""

import json
import os
import subprocess
import sys
import tempfile
import types
import unittest
import unittest.mock

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

    def all_kwargs(self):
        """As triton.Config.all_kwargs (triton-lang/triton @ 009401737888df54cfa5427fab82b0f12d47a35b,
        python/triton/runtime/autotuner.py): the kwargs and the launch fields that are not None."""
        launch = (("num_warps", self.num_warps), ("num_ctas", self.num_ctas), ("num_stages", self.num_stages),
                  ("maxnreg", self.maxnreg))
        return dict(self.kwargs, **{k: v for k, v in launch if v is not None})


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


class Raises(unittest.TestCase):
    """A tilefit error is raised with tilefit's own message, not swallowed
    (every config kept); keep_going=True keeps them, with a warning."""

    def test_unknown_machine(self):
        with self.assertRaises(tilefit.Error) as cm:
            tilefit.triton.early_config_prune([], machine="h100")
        self.assertEqual(cm.exception.field, "machine")
        self.assertIn("early_config_prune: machine: unknown machine 'h100'; did you mean 'h100-pcie' or 'h100-sxm'?",
                      cm.exception.message)
        with self.assertRaises(tilefit.Error):  # made for prune_configs_by: raises when made, not at launch
            tilefit.triton.early_config_prune(machine="h100")
        with self.assertWarns(UserWarning):
            prune = tilefit.triton.early_config_prune(machine="h100", keep_going=True)
        self.assertEqual(prune(CONFIGS, {}), CONFIGS)
        with self.assertRaises(TypeError):  # the old positional machine
            tilefit.triton.early_config_prune("h100-sxm")

    def test_unknown_workset(self):
        with self.assertRaises(tilefit.Error) as cm:
            tilefit.triton.early_config_prune(machine="h100-sxm", workset="triton-matmull")
        self.assertIn("early_config_prune: workset: unknown workset 'triton-matmull'; did you mean 'triton-matmul'?",
                      cm.exception.message)

    def test_a_key_that_names_nothing(self):
        mine = [Config({"BM": 128, "BN": 128, "BK": 64}, 3, 4), Config({"BM": 256, "BN": 256, "BK": 64}, 4, 8)]
        prune = tilefit.triton.early_config_prune(machine="h100-sxm", dtype="float16")
        with self.assertRaises(tilefit.Error) as cm:
            prune(mine, {})
        self.assertIn("configs[0]: check needs every variable fixed; still free: BLOCK_M, BLOCK_N, BLOCK_K",
                      cm.exception.message)
        self.assertIn("map={'YOUR_KEY': 'VARIABLE'}", cm.exception.message)
        mapped = tilefit.triton.early_config_prune(machine="h100-sxm", dtype="float16",
                                                   map={"BM": "BLOCK_M", "BN": "BLOCK_N", "BK": "BLOCK_K"})
        self.assertEqual(mapped(mine, {}), mine[:1])  # 256x256x64 at 4 wgmma buffers: 262144 B > 232448
        with self.assertRaises(tilefit.Error) as cm:
            tilefit.triton.early_config_prune(mine, {}, machine="h100-sxm", map={"BM": "BLOCK_Q"})
        self.assertIn("map['BM']", cm.exception.message)
        self.assertIn("has no variable or param 'BLOCK_Q'", cm.exception.message)
        with self.assertWarns(UserWarning):
            kept = tilefit.triton.early_config_prune(mine, {}, machine="h100-sxm", keep_going=True)
        self.assertEqual(kept, mine)

    def test_triton_defaults(self):
        """num_stages=None compiles at the backend's default (CUDA 3, HIP 2);
        without the attribute, triton.Config's own (3)."""
        none = Config({"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8}, None, 8)
        self.assertEqual(tilefit.triton.config_dict(none)["num_stages"], None)
        three = tutorial(128, 256, 64, 3, 8)
        for machine, stages in (("a100", 3), ("mi300x", 2)):
            got = tilefit.prune([tilefit.triton.config_dict(none)], machine=machine, workset="triton-matmul")
            self.assertEqual(got[0]["values"]["num_stages"], stages, machine)
        prune = tilefit.triton.early_config_prune(machine="a100", dtype="float16")
        self.assertEqual(prune([none, three], {}), [none, three])  # 2 x 49152 B on the A100's mma.sync


def tutorial_configs():
    """The tutorial's CUDA autotune list, tests/data/prune/triton-tutorial-cuda.jsonl."""
    path = os.path.join(os.environ.get("TILEFIT_DATA", "."), "tests/data/prune/triton-tutorial-cuda.jsonl")
    with open(path) as f:
        return [Config(c["kwargs"], c["num_stages"], c["num_warps"]) for c in map(json.loads, f)]


def cli_time(machine, config, extra=()):
    """tilefit solve's time for one config at the occupancy an SM holds (the command line, not the library)."""
    tool = os.path.join(os.environ.get("TILEFIT_DATA", "."), "tilefit")
    kw = config.kwargs
    args = [tool, "solve", "-m", machine, "-w", "triton-matmul", "-p", "num_warps=%d" % config.num_warps,
            "--fix", "BLOCK_M=%d" % kw["BLOCK_SIZE_M"], "--fix", "BLOCK_N=%d" % kw["BLOCK_SIZE_N"],
            "--fix", "BLOCK_K=%d" % kw["BLOCK_SIZE_K"], "--fix", "num_stages=%d" % config.num_stages,
            "--objective", "max occupancy", "--objective", "min time_ns", "--json"] + list(extra)
    run = subprocess.run(args, capture_output=True, text=True)
    if run.returncode == 1:
        return None
    answer = json.loads(run.stdout)
    return {o["objective"]: o["value"] for o in answer["objectives"]}["min time_ns"]


def autotuner_prune(prune_configs_by, configs, nargs, kwargs):
    """What Triton's Autotuner.prune_configs does with prune_configs_by (triton-lang/triton @
    009401737888df54cfa5427fab82b0f12d47a35b, python/triton/runtime/autotuner.py, prune_configs)."""
    pruned = configs
    if "early_config_prune" in prune_configs_by:
        pruned = prune_configs_by["early_config_prune"](configs, nargs, **kwargs)
    if "perf_model" in prune_configs_by:
        top_k = prune_configs_by.get("top_k", 1.0)
        if isinstance(top_k, float) and top_k <= 1.0:
            top_k = max(1, int(len(pruned) * top_k))
        if len(pruned) > top_k:
            est = {c: prune_configs_by["perf_model"](**nargs, **kwargs, **c.all_kwargs()) for c in pruned}
            pruned = sorted(est.keys(), key=lambda c: est[c])[:top_k]
    return pruned


NARGS = {"a_ptr": Tensor(2, "float16"), "b_ptr": Tensor(2, "float16"), "c_ptr": Tensor(2, "float16"),
         "M": 4096, "N": 4096, "K": 4096, "stride_am": 4096, "stride_ak": 1, "stride_bk": 4096, "stride_bn": 1,
         "stride_cm": 4096, "stride_cn": 1}


class Rank(unittest.TestCase):
    """The tutorial's sixteen configs ranked by triton-matmul's time on the
    H100 (at 4096^3 FP16, the tutorial's largest benchmark), as the command
    line times each, and the hooks Triton's autotuner calls."""

    def test_tutorial_on_h100(self):
        configs = tutorial_configs()
        rows = tilefit.triton.rank(configs, NARGS, machine="h100-sxm")
        self.assertEqual(len(rows), 16)
        best = rows[0]["config"]
        self.assertEqual((best.kwargs["BLOCK_SIZE_M"], best.kwargs["BLOCK_SIZE_N"], best.num_warps), (128, 256, 8))
        self.assertEqual(rows[0]["bound"], "mma")
        times = [r["time_ns"] for r in rows if r["fits"]]
        self.assertEqual(times, sorted(times))
        self.assertTrue(all(not r["fits"] and r["time_ms"] == float("inf") and r["reason"] for r in rows[len(times):]))
        for r in rows:  # the library's time is the command line's
            self.assertEqual(r["time_ns"], cli_time("h100-sxm", r["config"]))
        small = [r for r in rows if r["config"].num_warps == 2]
        self.assertTrue(all(r["bound"] == "smem" and r["time_ns"] > 3 * rows[0]["time_ns"] for r in small), small)

    def test_problem_from_named_args(self):
        configs = tutorial_configs()[:3]
        small = dict(NARGS, M=1024, N=1024, K=1024)
        rows = tilefit.triton.rank(configs, small, machine="a100")
        for r in rows:
            self.assertEqual(r["time_ns"], cli_time("a100", r["config"], ["-p", "M=1024", "-p", "N=1024", "-p", "K=1024"]))
        self.assertLess(rows[0]["time_ns"], tilefit.triton.rank(configs, NARGS, machine="a100")[0]["time_ns"])

    def test_perf_model_in_the_autotuner(self):
        configs = tutorial_configs()
        want = [r["config"] for r in tilefit.triton.rank(configs, NARGS, machine="h100-sxm")]
        model = tilefit.triton.perf_model(machine="h100-sxm")
        self.assertEqual(model(**NARGS, ACTIVATION="", **configs[0].all_kwargs()), cli_time("h100-sxm", configs[0]) / 1e6)
        self.assertEqual(model(**NARGS, **configs[8].all_kwargs()), float("inf"))  # 128x256x128: three 98304 B stages
        for top_k in (3, 0.25):
            got = autotuner_prune({"perf_model": model, "top_k": top_k}, configs, NARGS, {"ACTIVATION": ""})
            self.assertEqual(got, want[:3 if top_k == 3 else 4])
        by = tilefit.triton.prune_configs_by(machine="h100-sxm", top_k=2)
        self.assertEqual(sorted(by), ["early_config_prune", "perf_model", "top_k"])
        self.assertEqual(autotuner_prune(by, configs, NARGS, {"ACTIVATION": ""}), want[:2])
        self.assertEqual(sorted(tilefit.triton.prune_configs_by(machine="a100")), ["early_config_prune"])

    def test_a_workset_whose_ctas_do_not_share_an_sm(self):
        """cutlass-sm90-gemm's shape has no fill: its time is one CTA per SM's at any occupancy."""
        config = {"tile_m": 128, "tile_n": 256, "tile_k": 64, "splits": 1, "stages": 4}
        rows = tilefit.triton.rank([config], machine="h100-sxm", workset="cutlass-sm90-gemm")
        want = tilefit.solve(machine="h100-sxm", workset="cutlass-sm90-gemm", fix=config, objective=["min time_ns"])
        self.assertEqual(rows[0]["time_ns"], want["objectives"][0]["value"])
        self.assertEqual(rows[0]["occupancy"], 1)  # 4 stages of 48 KiB: one CTA fits an SM

    def test_early_config_prune_ranks(self):
        configs = tutorial_configs()
        want = [r["config"] for r in tilefit.triton.rank(configs, NARGS, machine="rtx4090")]
        self.assertEqual(tilefit.triton.early_config_prune(configs, NARGS, machine="rtx4090", top_k=3), want[:3])
        fitting = tilefit.triton.early_config_prune(configs, NARGS, machine="rtx4090")
        self.assertEqual(len(fitting), 11)
        self.assertEqual(set(map(id, fitting)), set(map(id, want[:11])))
        for bad in (0, "4", 1.5, True):
            with self.assertRaises(TypeError):
                tilefit.triton.early_config_prune(machine="rtx4090", top_k=bad)
            with self.assertRaises(TypeError):
                tilefit.triton.prune_configs_by(machine="rtx4090", top_k=bad)


class FakeCuda:
    def __init__(self, name, capability, sms, arch=None):
        self.name, self.capability = name, capability
        self.props = type("Props", (), {"multi_processor_count": sms, "gcnArchName": arch})()

    def is_available(self):
        return True

    def current_device(self):
        return 0

    def get_device_name(self, index):
        return self.name

    def get_device_capability(self, index):
        return self.capability

    def get_device_properties(self, index):
        return self.props


def fake_torch(name, capability, sms, arch=None):
    torch = types.ModuleType("torch")
    torch.cuda = FakeCuda(name, capability, sms, arch)
    torch.version = types.SimpleNamespace(hip="6.2" if arch else None)
    return torch


def fake_triton(backend, arch, sms):
    triton = types.ModuleType("triton")
    target = types.SimpleNamespace(backend=backend, arch=arch, warp_size=32)
    utils = types.SimpleNamespace(get_device_properties=lambda device: {"multiprocessor_count": sms})
    active = types.SimpleNamespace(get_current_target=lambda: target, get_current_device=lambda: 0, utils=utils)
    triton.runtime = types.SimpleNamespace(driver=types.SimpleNamespace(active=active))
    return triton


class Auto(unittest.TestCase):
    """machine="auto" through stand-ins for torch and triton (neither need
    be installed): the device's architecture, SM count and name."""

    def modules(self, torch=None, triton=None):
        return unittest.mock.patch.dict(sys.modules, {"torch": torch, "triton": triton})

    def test_through_torch(self):
        for device, want in ((("NVIDIA H100 80GB HBM3", (9, 0), 132), "h100-sxm"),
                             (("NVIDIA H100 PCIe", (9, 0), 114), "h100-pcie"),
                             (("NVIDIA H200", (9, 0), 132), "h200"),
                             (("NVIDIA A100-SXM4-80GB", (8, 0), 108), "a100"),
                             (("NVIDIA GeForce RTX 4090", (8, 9), 128), "rtx4090"),
                             (("AMD Instinct MI300X", (9, 4), 304, "gfx942:sramecc+:xnack-"), "mi300x")):
            with self.modules(torch=fake_torch(*device)):
                self.assertEqual(tilefit.triton.current_machine(), want, device)
        with self.modules(torch=fake_torch("NVIDIA H100 80GB HBM3", (9, 0), 132)):
            prune = tilefit.triton.early_config_prune(machine="auto", dtype="float16")
            want = [c for c, fits in zip(CONFIGS, cli_fits("h100-sxm", 16, CONFIGS)) if fits]
            self.assertEqual(prune(CONFIGS, {}), want)

    def test_through_triton(self):
        with self.modules(triton=fake_triton("cuda", 80, 108)):
            self.assertEqual(tilefit.triton.current_machine(), "a100")
        with self.modules(triton=fake_triton("hip", "gfx950", 256)):
            self.assertEqual(tilefit.triton.current_machine(), "mi355x")
        with self.modules(triton=fake_triton("cuda", 90, 132)):  # no name: an H100 SXM or an H200
            with self.assertRaises(tilefit.Error) as cm:
                tilefit.triton.current_machine()
            self.assertIn("could be h100-sxm or h200; pass one as machine=", cm.exception.message)

    def test_fails_loudly(self):
        with self.modules():  # None in sys.modules: neither imports
            with self.assertRaises(tilefit.Error) as cm:
                tilefit.triton.early_config_prune(machine="auto")
            self.assertIn("neither is importable", cm.exception.message)
        with self.modules(torch=fake_torch("NVIDIA Tesla T4", (7, 5), 40)):
            with self.assertRaises(tilefit.Error) as cm:
                tilefit.triton.current_machine()
            self.assertIn("no shipped machine is 'NVIDIA Tesla T4' (sm_75, 40 SMs), read through torch",
                          cm.exception.message)


if __name__ == "__main__":
    unittest.main()
