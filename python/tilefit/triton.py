"""Triton's autotuner, pruned before anything compiles.

    import tilefit.triton

    @triton.autotune(configs=CONFIGS, key=["M", "N", "K"],
                     prune_configs_by={"early_config_prune":
                                       tilefit.triton.early_config_prune(machine="h100-sxm")})
    @triton.jit
    def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, ..., BLOCK_SIZE_M: tl.constexpr, ...):

early_config_prune(machine=..., dtype=None, workset="triton-matmul") returns
the function Triton calls as ``early_config_prune(configs, named_args,
**kwargs)``: it keeps the configurations whose shared memory fits the
machine, as ``tilefit prune`` decides (the tutorial's BLOCK_SIZE_* keys and
Config's None fields are read as written).  The element width comes from
``dtype`` (a name such as "float16", "bfloat16", "float8_e4m3fn", "float32",
or anything with an ``itemsize``) or, when it is None, from the first
argument in named_args that has a ``dtype``; an 8-bit dtype whose name says
float8/fp8 (or int8) sets the workset's ``fp8`` param, since Triton compiles
fp8 dots only on compute capability 8.9 and later (a bare itemsize of 1
counts as fp8).  A configuration tilefit cannot check is kept, as Triton
would try it.
"""

import tilefit

__all__ = ["early_config_prune", "config_dict", "dtype_bits", "dtype_fp8"]

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
    """A triton.Config (or a dict) as the object tilefit prune reads."""
    if isinstance(config, dict):
        return dict(config)
    out = dict(getattr(config, "kwargs", {}) or {})
    for key in ("num_stages", "num_warps", "num_ctas", "maxnreg"):
        value = getattr(config, key, None)
        if isinstance(value, int) and not isinstance(value, bool):
            out[key] = value
    return out


def _named_dtype(named_args):
    for value in (named_args or {}).values():
        dtype = getattr(value, "dtype", None)
        if dtype is not None:
            return dtype
    return None


def early_config_prune(machine, dtype=None, workset="triton-matmul", params=None):
    """The function for prune_configs_by={"early_config_prune": ...}."""
    def prune(configs, named_args, **kwargs):
        configs = list(configs)
        if not configs:
            return configs
        chosen = dtype if dtype is not None else _named_dtype(named_args)
        p = dict(params or {})
        if chosen is not None:
            p["dt_bits"] = dtype_bits(chosen)
            if p["dt_bits"] == 8 and dtype_fp8(chosen) is not None and "fp8" not in p:
                p["fp8"] = dtype_fp8(chosen)
        try:
            verdicts = tilefit.prune([config_dict(c) for c in configs], machine=machine, workset=workset, params=p)
        except tilefit.Error:  # no configuration could be checked: leave the choice to Triton
            return configs
        return [c for c, v in zip(configs, verdicts) if v.get("fits") or "error" in v]
    return prune
