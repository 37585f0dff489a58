"""Triton's autotuner, pruned before anything compiles.

    import tilefit.triton

    @triton.autotune(configs=CONFIGS, key=["M", "N", "K"],
                     prune_configs_by={"early_config_prune":
                                       tilefit.triton.early_config_prune(machine="h100-sxm")})
    @triton.jit
    def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, ..., BLOCK_SIZE_M: tl.constexpr, ...):

early_config_prune(machine=..., dtype=None, workset="triton-matmul",
params=None, map=None, keep_going=False) returns the function Triton calls
as ``early_config_prune(configs, named_args, **kwargs)``: it keeps the
configurations whose shared memory fits the machine, as ``tilefit prune``
decides (the tutorial's BLOCK_SIZE_* keys are read as the workset's
BLOCK_*; a config without num_stages or num_warps is checked at Triton's
defaults; map={"BM": "BLOCK_M"} reads your kernel's keys).  Given the
configs first, early_config_prune(configs, named_args, machine=...) prunes
them at once.  The machine and workset are checked when the function is
made: a name tilefit does not know raises tilefit.Error with tilefit's
message ("unknown machine 'h100'; did you mean 'h100-pcie' or
'h100-sxm'?"), and so does a configuration tilefit cannot check (a key
that names nothing, so a block size is missing) -- unless keep_going=True,
which keeps what cannot be checked, as Triton would try it, with a
warning.  machine="auto" is the shipped machine of the current device,
read through torch or triton (current_machine()).

The element width comes from ``dtype`` (a name such as "float16",
"bfloat16", "float8_e4m3fn", "float32", or anything with an ``itemsize``)
or, when it is None, from the first argument in named_args that has a
``dtype``; an 8-bit dtype whose name says float8/fp8 (or int8) sets the
workset's ``fp8`` param, since Triton compiles fp8 dots only on compute
capability 8.9 and later (a bare itemsize of 1 counts as fp8).

Ranking, from the workset's time (docs/cost-model.md, the Triton section):
rank(configs, named_args, machine=...) orders configs fastest first, with
each one's time, binding term and occupancy; perf_model(machine=...) is
the estimate Triton's autotuner sorts by when prune_configs_by has
"perf_model" and "top_k" (it calls it as perf_model(**named_args,
**kwargs, **config.all_kwargs()) and benchmarks the top_k least);
early_config_prune(..., top_k=K) keeps the K fastest that fit; and
prune_configs_by(machine=..., top_k=K) is the whole dict:

    @triton.autotune(configs=CONFIGS, key=["M", "N", "K"],
                     prune_configs_by=tilefit.triton.prune_configs_by(machine="h100-sxm", top_k=4))

The launch's integer arguments that name a param of the workset (the
tutorial's M, N, K) set it; the time is the workset's at that problem.
"""

import functools
import importlib
import re
import warnings

import tilefit

__all__ = ["early_config_prune", "perf_model", "prune_configs_by", "rank", "config_dict", "dtype_bits", "dtype_fp8",
           "current_machine"]

_BITS = {"float8": 8, "fp8": 8, "int8": 8, "uint8": 8, "float16": 16, "half": 16, "fp16": 16,
         "bfloat16": 16, "bf16": 16, "float32": 32, "float": 32, "fp32": 32, "tf32": 32}


def dtype_bits(dtype):
    """Bits of one element: a dtype object (its itemsize) or a name."""
    size = getattr(dtype, "itemsize", None)
    if isinstance(size, int) and size > 0:
        return 8 * size
    name = str(dtype).rsplit(".", 1)[-1].lower()
    for prefix, bits in sorted(_BITS.items(), key=lambda kv: -len(kv[0])):
        if name.startswith(prefix):
            return bits
    raise ValueError("tilefit.triton: unknown dtype %r (expected float16, bfloat16, float8..., float32)" % (dtype,))


def dtype_fp8(dtype):
    """1 for an fp8 dtype, 0 for int8/uint8, None when the name does not say."""
    name = str(dtype).rsplit(".", 1)[-1].lower()
    if name.startswith(("float8", "fp8")):
        return 1
    if name.startswith(("int8", "uint8")):
        return 0
    return None


def config_dict(config):
    """A triton.Config (or a dict) as the object tilefit prune reads: its
    kwargs, and its launch fields as they are, None as null (the library
    gives a missing or None num_stages and num_warps Triton's defaults)."""
    if isinstance(config, dict):
        return dict(config)
    out = dict(getattr(config, "kwargs", {}) or {})
    for key in ("num_stages", "num_warps", "num_ctas", "maxnreg"):
        if not hasattr(config, key):
            continue
        value = getattr(config, key)
        if value is None or (isinstance(value, int) and not isinstance(value, bool)):
            out[key] = value
    return out


def _named_dtype(named_args):
    for value in (named_args or {}).values():
        dtype = getattr(value, "dtype", None)
        if dtype is not None:
            return dtype
    return None


# ------------------------------------------------------------ machine="auto"

def _optional(name):
    """The module, or None when it cannot be imported."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def _device_from_torch(torch):
    """(arch, SM count, name) of torch's current device, or None without one."""
    cuda = getattr(torch, "cuda", None)
    if cuda is None or not cuda.is_available():
        return None
    index = cuda.current_device()
    props = cuda.get_device_properties(index)
    gcn = getattr(props, "gcnArchName", None)
    if getattr(getattr(torch, "version", None), "hip", None) and gcn:
        arch = str(gcn).split(":")[0]
    else:
        major, minor = cuda.get_device_capability(index)
        arch = "sm_%d%d" % (major, minor)
    return arch, getattr(props, "multi_processor_count", None), cuda.get_device_name(index)


def _device_from_triton(triton):
    """(arch, SM count, None) of Triton's active driver's device."""
    driver = triton.runtime.driver.active
    target = driver.get_current_target()
    arch = "sm_%d" % target.arch if target.backend == "cuda" else str(target.arch)
    sms = None
    try:
        sms = driver.utils.get_device_properties(driver.get_current_device()).get("multiprocessor_count")
    except Exception:  # the SM count only narrows the match; the architecture decides
        sms = None
    return arch, sms, None


_catalog = None


def _machines():
    """Each shipped machine's (name, arch, sm_count), read once."""
    global _catalog
    if _catalog is None:
        rows = []
        for name in tilefit.machines():
            fields = {f["field"]: f["value"] for f in tilefit.machine(name)["fields"]}
            rows.append((name, fields.get("arch"), fields.get("sm_count")))
        _catalog = rows
    return _catalog


def _squash(text):
    return re.sub(r"[^a-z0-9]", "", str(text).lower())


def _match(arch, sms, name):
    """The shipped machines that are this device: its architecture, then
    its SM count, then its name (H100 and H200 share both)."""
    found = [m for m in _machines() if m[1] == arch]
    if sms and len(found) > 1:
        found = [m for m in found if m[2] == sms] or found
    if name and len(found) > 1:
        device = _squash(name)
        named = [m for m in found if _squash(m[0]) in device or _squash(m[0].split("-")[0]) in device]
        found = named or found
    return [m[0] for m in found]


def current_machine():
    """The shipped machine name of the current device, read through torch
    (device name, compute capability or gfx arch, SM count) or, without
    torch, triton (its target and SM count).  Raises tilefit.Error when
    neither is importable, there is no device, or no single shipped
    machine is the device (pass machine=NAME then)."""
    device, how = None, None
    torch = _optional("torch")
    if torch is not None:
        device, how = _device_from_torch(torch), "torch"
    if device is None:
        triton = _optional("triton")
        if triton is not None:
            device, how = _device_from_triton(triton), "triton"
        elif torch is None:
            raise tilefit.Error("tilefit.triton: machine='auto' reads the device through torch or triton, and neither "
                                "is importable; pass machine=NAME (tilefit.machines() lists them)", 2, "machine")
    if device is None:
        raise tilefit.Error("tilefit.triton: machine='auto': %s sees no GPU; pass machine=NAME" % how, 2, "machine")
    arch, sms, name = device
    found = _match(arch, sms, name)
    seen = "%s (%s%s)" % (repr(name) if name else "the device", arch, ", %s SMs" % sms if sms else "")
    if not found:
        raise tilefit.Error("tilefit.triton: machine='auto': no shipped machine is %s, read through %s; pass "
                            "machine=NAME or a machine file" % (seen, how), 2, "machine")
    if len(found) > 1:
        raise tilefit.Error("tilefit.triton: machine='auto': %s, read through %s, could be %s; pass one as machine="
                            % (seen, how, " or ".join(found)), 2, "machine")
    return found[0]


# ------------------------------------------------------------------ pruning

def _resolve(machine, workset):
    """The machine's name (auto: the device's) and the workset, checked:
    a name tilefit does not know raises with tilefit's own message."""
    if machine is None:
        raise tilefit.Error("tilefit.triton: early_config_prune needs machine=NAME (or machine='auto')", 2, "machine")
    if machine == "auto":
        machine = current_machine()
    for keyword, value, load in (("machine", machine, tilefit.machine), ("workset", workset, tilefit.workset)):
        try:
            load(value)
        except tilefit.Error as e:  # "$.name: unknown machine 'h100'; did you mean ...": the keyword's now
            text = e.line.split(": ", 1)[1] if e.line.startswith("$.") and ": " in e.line else e.line
            raise tilefit.Error("early_config_prune: %s: %s" % (keyword, text), e.status, keyword) from None
    return machine


def _params(dtype, named_args, params):
    chosen = dtype if dtype is not None else _named_dtype(named_args)
    p = dict(params or {})
    if chosen is not None:
        p["dt_bits"] = dtype_bits(chosen)
        if p["dt_bits"] == 8 and dtype_fp8(chosen) is not None and "fp8" not in p:
            p["fp8"] = dtype_fp8(chosen)
    return p


def _hint(text):
    """After a block size left free: how to name your kernel's keys."""
    return "; map={'YOUR_KEY': 'VARIABLE'} reads your kernel's keys" if "still free" in text else ""


def _verdicts(configs, named_args, machine, dtype, workset, params, map_, keep_going, extra=None):
    """tilefit prune's verdict on each config (as config_dict reads it,
    over the keys of `extra`: a call's integer arguments);
    a config that cannot be checked raises, or with keep_going warns and
    keeps its verdict's "error".  None: the list could not be checked at
    all (keep_going: every config kept)."""
    try:
        verdicts = tilefit.prune([dict(extra or {}, **config_dict(c)) for c in configs], machine=machine, workset=workset,
                                 params=_params(dtype, named_args, params), map=map_)
    except tilefit.Error as e:
        if not keep_going:
            text = re.sub(r"^prune: ", "early_config_prune: ", e.message)
            raise tilefit.Error(text + _hint(text), e.status, e.field, e.line) from None
        warnings.warn("tilefit.triton: %s; keeping every config (keep_going=True)" % e.message, stacklevel=4)
        return None
    bad = [(i, re.sub(r"^\$\.configs\[\d+\]: ", "", v["error"])) for i, v in enumerate(verdicts) if "error" in v]
    if bad and not keep_going:
        raise tilefit.Error("early_config_prune: configs[%d]: %s%s" % (bad[0] + (_hint(bad[0][1]),)), 2, "configs")
    for i, why in bad:
        warnings.warn("tilefit.triton: configs[%d] kept unchecked: %s" % (i, why), stacklevel=4)
    return verdicts


def _prune(configs, named_args, machine, dtype, workset, params, map_, keep_going, top_k=None):
    configs = list(configs)
    if not configs:
        return configs
    verdicts = _verdicts(configs, named_args, machine, dtype, workset, params, map_, keep_going,
                         _launch_args(named_args or {}))
    if verdicts is None:
        return configs
    kept = [(c, v) for c, v in zip(configs, verdicts) if v.get("fits") or "error" in v]
    if top_k is not None:
        kept = [(r["config"], r["verdict"]) for r in _ranked(kept, machine, workset)][:_top(top_k, len(configs))]
    return [c for c, _ in kept]


# ------------------------------------------------------------------- time

_BOUND = {1: "mma", 2: "exp", 3: "smem", 4: "l2", 5: "hbm"}


def _top(top_k, n):
    """Triton's top_k: an int, or a fraction (<= 1.0) of the n configs, at least one."""
    if isinstance(top_k, float) and top_k <= 1.0:
        return max(1, int(n * top_k))
    if isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 1:
        raise TypeError("tilefit.triton: top_k is an int >= 1 or a float <= 1.0, as Triton's, not %r" % (top_k,))
    return top_k


def _time(verdict, machine, workset):
    """(time_ns, bound, occupancy) of one config that fits: the workset's
    time at its values and params, the SM holding as many programs as fit
    (max occupancy first, as the hardware does; a workset whose shape has
    no fill times one CTA per SM whatever the occupancy)."""
    values = tuple(sorted((k, v) for k, v in verdict["values"].items() if k != "occupancy"))
    params = tuple(sorted((k, v) for k, v in verdict["params"].items() if isinstance(v, int) and not isinstance(v, bool)))
    return _solve_time(machine, workset, values, params)


@functools.lru_cache(maxsize=4096)
def _solve_time(machine, workset, values, params):
    """_time's solve, cached: the autotuner asks again for every launch
    whose key (M, N, K) it has not seen, with the same configs."""
    answer = tilefit.solve(machine=machine, workset=workset, params=dict(params), fix=dict(values),
                           objective=["max occupancy", "min time_ns", "min time_bound_by"])
    got = {o["objective"]: o["value"] for o in answer.get("objectives", [])}
    return got.get("min time_ns"), _BOUND.get(got.get("min time_bound_by")), answer.get("values", {}).get("occupancy")


def _ranked(pairs, machine, workset):
    """(config, verdict) pairs as rows, fastest first: a config that does
    not fit, or was kept unchecked, after every one that has a time, in
    the order given (sorted() is stable, so equal times keep it too)."""
    rows = []
    for config, verdict in pairs:
        fits = bool(verdict.get("fits"))
        time_ns, bound, occupancy = _time(verdict, machine, workset) if fits else (None, None, None)
        rows.append({"config": config, "fits": fits, "time_ns": time_ns, "bound": bound, "occupancy": occupancy,
                     "time_ms": time_ns / 1e6 if time_ns is not None else float("inf"),
                     "reason": verdict.get("error") or verdict.get("reason"), "verdict": verdict})
    return sorted(rows, key=lambda r: r["time_ms"])


def rank(configs, named_args=None, machine=None, dtype=None, workset="triton-matmul", params=None, map=None,
         keep_going=False):
    """The configs ranked by the workset's time (docs/cost-model.md, the
    Triton section): a list of dicts, fastest first, each with "config"
    (as given), "fits", "time_ns" (an int), "time_ms", "bound" (the term
    that binds: mma, smem, l2, hbm), "occupancy" (the programs an SM
    holds, as many as fit) and, for one that does not fit,
    "reason"; those that do not fit come last, with time_ms inf.  The
    problem's M, N and K come from params or named_args (Triton's named
    arguments: the tutorial's M, N, K), else the workset's defaults
    (4096 each); the element width from dtype or the first tensor in
    named_args."""
    machine = _resolve(machine, workset)
    configs = list(configs)
    verdicts = _verdicts(configs, named_args, machine, dtype, workset, params, map, keep_going,
                         _launch_args(named_args or {}))
    if verdicts is None:
        verdicts = [{"error": "not checked"} for _ in configs]
    rows = _ranked(zip(configs, verdicts), machine, workset)
    for r in rows:
        del r["verdict"]
    return rows


def _launch_args(kwargs):
    """The integer arguments of a call (the problem's M, N, K, strides and
    the like; tensors and flags are not): read as a config's keys, those
    that name a param of the workset set it and the others are ignored."""
    return {k: v for k, v in kwargs.items() if isinstance(v, int) and not isinstance(v, bool)}


def perf_model(machine=None, dtype=None, workset="triton-matmul", params=None, map=None, keep_going=False):
    """The function for prune_configs_by={"perf_model": ..., "top_k": K}.
    Triton calls it once per config as perf_model(**named_args, **kwargs,
    **config.all_kwargs()) and benchmarks the top_k configs with the
    least estimates; it returns the workset's time in milliseconds (the
    time rank() gives), inf for a config that does not fit.  The launch's
    M, N and K set the workset's params of those names; the element width
    comes from dtype or the first tensor among the arguments."""
    machine = _resolve(machine, workset)

    def estimate(**kwargs):
        config = dict(_launch_args(kwargs), **{k: None for k, v in kwargs.items() if v is None})
        verdicts = _verdicts([config], kwargs, machine, dtype, workset, params, map, keep_going)
        if verdicts is None or not verdicts[0].get("fits"):
            return float("inf")
        time_ns = _time(verdicts[0], machine, workset)[0]
        return time_ns / 1e6 if time_ns is not None else float("inf")
    return estimate


def prune_configs_by(machine=None, top_k=None, dtype=None, workset="triton-matmul", params=None, map=None,
                     keep_going=False):
    """The whole prune_configs_by dict for triton.autotune: early_config_prune
    (what does not fit is dropped) and, with top_k, perf_model with that
    top_k (Triton benchmarks only the top_k configs the model ranks first)."""
    options = dict(machine=machine, dtype=dtype, workset=workset, params=params, map=map, keep_going=keep_going)
    out = {"early_config_prune": early_config_prune(**options)}
    if top_k is not None:
        _top(top_k, 1)  # the type is checked now, not at launch
        out["perf_model"] = perf_model(**options)
        out["top_k"] = top_k
    return out


def early_config_prune(configs=None, named_args=None, machine=None, dtype=None, workset="triton-matmul", params=None,
                       map=None, keep_going=False, top_k=None, **kwargs):
    """The function for prune_configs_by={"early_config_prune": ...}, or,
    given the configs, their pruning now (see the module's text).  With
    top_k (an int, or a fraction of the configs as Triton's), it also
    ranks: it keeps the top_k that fit with the least time (rank())."""
    if isinstance(configs, str):
        raise TypeError("tilefit.triton.early_config_prune: configs is a list of triton.Config; pass the machine as "
                        "machine=%r" % configs)
    try:
        machine = _resolve(machine, workset)
    except tilefit.Error:
        if not keep_going:
            raise
        warnings.warn("tilefit.triton: the machine or workset did not load; every config is kept (keep_going=True)",
                      stacklevel=2)

        def keep(configs, named_args=None, **kwargs):
            return list(configs)
        return keep if configs is None else keep(configs)

    if top_k is not None:
        _top(top_k, 1)

    def prune(configs, named_args=None, **kwargs):
        return _prune(configs, named_args, machine, dtype, workset, params, map, keep_going, top_k)
    return prune if configs is None else prune(configs, named_args)
