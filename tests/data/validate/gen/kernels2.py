#!/usr/bin/python3
"""Validation cases for the kernels-2 worksets, computed from the upstream
formulas, independently of tilefit.

Each function below re-implements what the upstream code does (the file and
commit are named beside it): layouts are walked member by member with each
member's *start* aligned, as the C++ structs and CuTe DSL storage classes lay
them out, and stage counts are the upstream floor divisions, not an
optimisation.  Nothing here reads a workset.  Capacities are the machine
facts of machines/*.json (smem.capacity per CTA, smem.per_sm).

Writes attention-bwd.jsonl, cutedsl.jsonl, flashinfer.jsonl, triton.jsonl and
flashmla.jsonl beside this directory: first the shared cases of
SHARED_CASES.jsonl (published worked cases) that concern each family (verbatim),
then the generated ones.

    /usr/bin/python3 tests/data/validate/gen/kernels2.py SHARED_CASES.jsonl
"""
import json
import os
import sys

# (per-CTA opt-in bytes, per-SM bytes): smem.capacity and smem.per_sm of machines/*.json
CAP = {
    "a100": (166912, 167936), "a10": (101376, 102400), "rtx3090": (101376, 102400),
    "l40s": (101376, 102400), "rtx4090": (101376, 102400),
    "h100-sxm": (232448, 233472), "h100-pcie": (232448, 233472), "h200": (232448, 233472),
    "b200": (232448, 233472), "gb200": (232448, 233472), "b300": (232448, 233472),
    "rtx5090": (101376, 102400), "rtx-pro-6000": (101376, 102400),
    "mi300x": (65536, 65536), "mi355x": (163840, 163840),
}
TMEM_COLUMNS = 512


def up(x, a):
    return (x + a - 1) // a * a


def walk(members, start=0):
    """End offset of a struct whose members start at their own alignment."""
    off = start
    for size, align in members:
        off = up(off, align) + size
    return off


# ---------------------------------------------------------------- fa4-bwd
# Dao-AILab/flash-attention @ 0251105a, flash_attn/cute/flash_bwd_sm100.py
# _setup_attributes (stages, dQ reduction) and SharedStorage.
def fa4_bwd_bytes(d, dv, q, do, cg, causal=0, det=0, tm=128, tn=128, e=2):
    if cg == 1:
        ncol, sdq = 32, 2
    elif d <= 128:
        ncol, sdq = (16, 2) if det else (8, 4)
    else:
        ncol, sdq = (32, 1) if causal else (24, 2)
    nbar = 4 * q + 4 * do + 12 + 2 * ((d // ncol) // 2)
    header = 8 * nbar + 16 + (16 * q + 48 if cg == 2 else 0)
    assert header < 1024
    lse = 4 * ((q - 1) * up(tm, 64) + tm)
    dpsum = 4 * ((do - 1) * up(tm, 64) + tm)
    dqacc = tm * ncol * sdq * 4
    if cg == 1:
        m = [(q * tm * d * e, 1024), (tn * d * e, 1024), (tn * dv * e, 1024),
             (do * tm * dv * e, 1024), (tn * tm * e, 128), (lse, 128), (dpsum, 128),
             (dqacc, 1024)]
    else:
        m = [(q * (tm // 2) * d * e, 1024), (tn * d * e, 1024), (tn * dv * e, 1024),
             (do * (dv // 2) * tm * e, 1024)]
        xchg = d <= 128
        if xchg:
            m += [(q * (d // 2) * tm * e, 1024), (do * (tm // 2) * dv * e, 1024),
                  (tn * (tm // 2) * e, 1024)]
        m += [((d // 2) * (2 * tn) * e, 1024), (tn * tm * e, 128), (lse, 128), (dpsum, 128),
              (dqacc, 128 if xchg else 1024)]
    smem = up(walk(m, up(header, 1024)), 1024)
    cols = tn + dv + tm + d - (64 if cg == 2 and d > 128 else 0)
    return smem, cols


def fa4_bwd_cases():
    out = []
    for d, dv, cg in [(64, 64, 1), (96, 96, 1), (128, 128, 1), (128, 128, 2), (192, 128, 2),
                      (64, 128, 1), (128, 64, 1), (128, 64, 2), (64, 64, 2)]:
        for causal in ([0, 1] if d == 192 else [0]):
            for det in ([0, 1] if cg == 2 and d <= 128 else [0]):
                for q in range(1, 5):
                    for do in range(1, 4):
                        smem, cols = fa4_bwd_bytes(d, dv, q, do, cg, causal, det)
                        fits = smem <= CAP["b200"][0] and cols <= TMEM_COLUMNS
                        for mach in ["b200", "gb200"]:
                            out.append(case(
                                f"G-fa4bwd-{mach}-d{d}-dv{dv}-cg{cg}-c{causal}-det{det}-q{q}-do{do}",
                                mach, "fa4-bwd",
                                {"d": d, "dv": dv, "cta_group": cg, "causal": causal, "deterministic": det},
                                {"tile_m": 128, "tile_n": 128, "Q_stage": q, "dO_stage": do},
                                None, {"fits": fits}, "fits",
                                f"flash_bwd_sm100.py SharedStorage walked member by member: {smem} B, {cols} TMEM columns"))
    return out


# ---------------------------------------------------------------- fa3-bwd
# Dao-AILab/flash-attention @ 0251105a, hopper/mainloop_bwd_sm90_tma_gmma_ws.hpp
# TensorStorage and hopper/flash_bwd_kernel_sm90.h SharedStorage.
def swizzle_align(k_elems, e):
    b = k_elems * e
    return 1024 if b % 128 == 0 else 512 if b % 64 == 0 else 256 if b % 32 == 0 else 128


def fa3_bwd_bytes(d, br, bc, do, ds, sdp, dkv, wg, am, an, vregs, qs=2, e=2):
    a_q = 256 if d % 256 == 0 else 128
    a_v = swizzle_align(d, e) if vregs else a_q
    a_pds = swizzle_align(bc // (wg // am), e)
    rs = am == 1 and an == wg and sdp == 1 and dkv == 0
    lse = 4 * ((qs - 1) * up(br, 64) + br)
    members = [(bc * d * e, a_q), (bc * d * e, a_v),
               (br * d * 4, 16) if d < 256 else (1, 4),
               (br * d * qs * e, a_q), (br * d * do * e, a_q), (lse, 128), (lse, 128),
               (1, 1) if rs else (br * bc * ds * e, a_pds), (br * bc * ds * e, a_pds)]
    sa = max(a_pds, a_q, a_v)
    mainloop = up(walk(members), sa)
    union = max(mainloop, 2 * bc * d * e)
    return up(union + 16 + 16 * qs + 16 * do + 16, sa)


# hopper/flash_bwd_launch_template.h, the sm90 tuples of run_mha_bwd_hdimNN:
# (d, B_r, B_c, dO, dS, SdP_swapAB, dKV_swapAB, dQ_swapAB, wg, atomMSdP, atomNdKV, atomMdQ, V_in_regs)
FA3_TUPLES = [
    ("d64-causal-softcap", 64, 96, 128, 2, 2, 1, 0, 1, 2, 1, 2, 2, 0),
    ("d64", 64, 128, 128, 2, 2, 1, 0, 0, 2, 1, 2, 2, 0),
    ("d96", 96, 64, 128, 2, 2, 1, 0, 0, 2, 1, 2, 1, 1),
    ("d128-causal", 128, 64, 128, 2, 2, 1, 0, 0, 2, 1, 2, 1, 0),
    ("d128", 128, 80, 128, 2, 2, 1, 0, 1, 2, 1, 2, 1, 0),
    ("d192", 192, 64, 96, 1, 1, 0, 1, 0, 3, 1, 1, 1, 0),
    ("d256", 256, 64, 80, 1, 1, 0, 1, 1, 2, 1, 1, 1, 0),
]


def fa3_bwd_cases():
    out = []
    for name, d, br, bc, do, ds, sdp, dkv, dq, wg, am, an, amdq, vr in FA3_TUPLES:
        params = {"d": d, "dO_stage": do, "dS_stage": ds, "sdp_swapab": sdp, "dkv_swapab": dkv,
                  "dq_swapab": dq, "num_wg": wg, "atom_m_sdp": am, "atom_n_dkv": an,
                  "atom_m_dq": amdq, "v_in_regs": vr}
        for mach in ["h100-sxm", "h200"]:
            # the listed tile, and its neighbours one B_c step (16) either side
            for bc2 in [bc - 16, bc, bc + 16]:
                if bc2 % (wg // am):
                    continue
                size = fa3_bwd_bytes(d, br, bc2, do, ds, sdp, dkv, wg, am, an, vr)
                # the neighbours are SMEM claims only (rf_model 0); the listed tile, which
                # upstream compiles, must also fit the workset's register count
                p2 = params if bc2 == bc else dict(params, rf_model=0)
                out.append(case(f"G-fa3bwd-{mach}-{name}-{br}x{bc2}", mach, "fa3-bwd", p2,
                                {"B_r": br, "B_c": bc2}, None, {"fits": size <= CAP[mach][0]}, "fits",
                                f"run_mha_bwd_hdim{d} sm90 tuple (B_c {bc}); SharedStorage walked: {size} B"))
    return out


# ---------------------------------------------------------------- fa2-bwd
# Dao-AILab/flash-attention @ 0251105a, csrc/flash_attn/src/kernel_traits.h
# kSmemSize1colblock; configs of flash_bwd_launch_template.h run_mha_bwd_hdimNN
# as (B_r, B_c, Is_V_in_regs, No_double_buffer).
def fa2_bwd_bytes(d, br, bc, vregs, nodb, e=2):
    qdo = br * d * (2 if nodb else 3) * e
    kv = bc * d * 2 * e
    ds = p = br * bc * e
    return qdo + (max(kv, kv // 2 + ds + p) if vregs else kv + ds + p)


FA2_CONFIGS = {
    32: [(128, 128, 1, 0), (128, 128, 0, 0)],
    64: [(128, 128, 0, 0), (64, 128, 1, 0)],
    96: [(64, 128, 1, 0), (64, 128, 0, 0)],
    128: [(64, 128, 0, 0), (64, 64, 1, 0)],
    160: [(64, 64, 0, 0), (64, 64, 0, 1)],
    192: [(64, 64, 0, 0), (64, 64, 1, 1)],
    256: [(64, 64, 0, 0), (64, 64, 0, 1), (64, 32, 1, 1)],
}


def fa2_bwd_cases():
    out = []
    for d, cfgs in FA2_CONFIGS.items():
        for br, bc, vr, nodb in cfgs:
            size = fa2_bwd_bytes(d, br, bc, vr, nodb)
            for mach in ["a100", "a10", "rtx3090", "l40s", "rtx4090", "h100-sxm", "b200", "rtx5090"]:
                out.append(case(f"G-fa2bwd-{mach}-d{d}-{br}x{bc}-v{vr}-nodb{nodb}", mach, "fa2-bwd",
                                {"d": d, "no_double_buffer": nodb, "v_in_regs": vr},
                                {"B_r": br, "B_c": bc}, None, {"fits": size <= CAP[mach][0]}, "fits",
                                f"kSmemSize1colblock = {size} B against the per-block opt-in"))
    return out


# ---------------------------------------------------------------- CuTe DSL
# NVIDIA/cutlass @ 7107b055, examples/python/CuTeDSL/cute/hopper/kernel/dense_gemm/
# dense_gemm.py and dense_gemm_persistent.py _compute_stages; hopper_helpers.py
# compute_tile_shape_or_override (epilogue tile).
def dsl90_stages(cap, tm, tn, ab_bits, c_bits, persistent):
    k = 1024 // ab_bits
    ab = (tm + tn) * k * ab_bits // 8
    if not persistent:
        return (cap - 1024) // ab
    if tm > 64 and tn > 128:
        epi = (min(128, tm), min(32, tn))
    else:
        epi = (min(64, tm), min(64 if c_bits == 8 else 32, tn))
    return (cap - 1024 - 4 * epi[0] * epi[1] * c_bits // 8) // ab


# blackwell_helpers.py compute_epilogue_tile_size (no C source, N-major D)
def dsl100_epi_tile(cta_m, cta_n, two_cta, d_bits):
    wm, wn = (2, 2) if cta_m == 64 and two_cta else (4, 1)
    tile_m = min(cta_m, 32 * wm)
    n_perf = (8192 if d_bits == 4 else 4096) // tile_m
    while cta_n % n_perf:
        n_perf //= 2
    n_min_d = 128 * wn if d_bits == 6 else 128 // d_bits * wn
    n_min_c = 8 * wn
    tile_n = min(cta_n, max(n_perf, n_min_c, n_min_d))
    if cta_n % tile_n:
        tile_n = cta_n
    return tile_m, tile_n


# dense_gemm_persistent.py _compute_stages / dense_gemm.py _compute_stages
def dsl100_stages(cap, mma_m, mma_n, cg, ab_bits, c_bits, persistent):
    k = 1024 // ab_bits
    cta_m = mma_m // cg
    ab = (cta_m + mma_n // cg) * k * ab_bits // 8
    tm, tn = dsl100_epi_tile(cta_m, mma_n, cg == 2, c_bits)
    c = tm * tn * c_bits // 8
    occ = 1 if persistent else 2  # non-persistent reserves occupancy + 1 times
    mbar = 1024
    ab_stage = (cap - occ * (mbar + 2 * c)) // ab
    c_stage = 2 + (cap - ab_stage * ab - occ * (mbar + 2 * c)) // (occ * c)
    return ab_stage, c_stage


# blackwell_geforce/kernel/dense_gemm/dense_gemm.py _compute_stages
def dsl120_stages(cap, tm, tn, tk, ab_bits, c_bits, occ=1):
    epi = min(64, tm) * min(64 if c_bits == 8 else 32, tn) * c_bits // 8
    ab = (tm + tn) * tk * ab_bits // 8
    return ((cap - 1024 * occ) // occ - 1024 - 8 * epi) // ab


def dsl_cases():
    out = []
    for mach in ["h100-sxm", "h200"]:
        for ab_bits in [8, 16, 32]:
            tk = 1024 // ab_bits
            for tm in [64, 128]:
                for tn in [64, 128, 256]:
                    for c_bits in [8, 16, 32]:
                        for pers in [0, 1]:
                            s = dsl90_stages(CAP[mach][0], tm, tn, ab_bits, c_bits, pers)
                            out.append(case(f"G-dsl90-{mach}-{tm}x{tn}x{tk}-ab{ab_bits}-c{c_bits}-p{pers}",
                                            mach, "cutedsl-sm90-gemm",
                                            {"ab_bits": ab_bits, "c_bits": c_bits, "persistent": pers},
                                            {"tile_m": tm, "tile_n": tn, "tile_k": tk}, ["max ab_stage"],
                                            {"ab_stage": s}, "formula", "hopper dense_gemm _compute_stages"))
    for mach in ["b200", "b300"]:
        for cg, mms in [(1, [64, 128]), (2, [128, 256])]:
            for mm in mms:
                for mn in range(64, 257, 32):
                    for ab_bits in [8, 16]:
                        for c_bits in [8, 16, 32]:
                            for pers in [0, 1]:
                                a, c = dsl100_stages(CAP[mach][0], mm, mn, cg, ab_bits, c_bits, pers)
                                out.append(case(
                                    f"G-dsl100-{mach}-{mm}x{mn}-cg{cg}-ab{ab_bits}-c{c_bits}-p{pers}",
                                    mach, "cutedsl-sm100-gemm",
                                    {"ab_bits": ab_bits, "c_bits": c_bits, "cta_group": cg, "persistent": pers},
                                    {"mma_m": mm, "mma_n": mn}, ["max ab_stage", "max c_stage"],
                                    {"ab_stage": a, "c_stage": c}, "formula",
                                    "blackwell dense_gemm(_persistent) _compute_stages"))
    for mach in ["rtx5090", "rtx-pro-6000"]:
        for tm in [64, 128]:
            for tn in [64, 128, 256]:
                for tk in [32, 64, 128]:
                    for c_bits in [16, 32]:
                        s = dsl120_stages(CAP[mach][0], tm, tn, tk, 16, c_bits)
                        if s < 1:
                            continue  # the example skips a configuration with 0 stages
                        out.append(case(f"G-dsl120-{mach}-{tm}x{tn}x{tk}-c{c_bits}", mach, "cutedsl-sm120-gemm",
                                        {"ab_bits": 16, "c_bits": c_bits},
                                        {"tile_m": tm, "tile_n": tn, "tile_k": tk}, ["max ab_stage"],
                                        {"ab_stage": s}, "formula", "blackwell_geforce dense_gemm _compute_stages"))
    return out


# ---------------------------------------------------------------- FlashInfer
# flashinfer-ai/flashinfer @ fb28d724, include/flashinfer/attention/prefill.cuh
# (SinglePrefillWithKVCacheDispatched) and DISPATCH_NUM_MMA_KV.
def flashinfer_num_mma_kv(smem_per_sm, cap, d, cta_tile_q, rope_llama):
    num_warps_q = 4 if cta_tile_q > 16 else 1
    num_warps_kv = 4 // num_warps_q
    num_mma_q = 2 if cta_tile_q > 64 else 1
    q_bytes = kv_bytes = 2
    per = (d + d) * 16 * num_warps_kv * kv_bytes
    fixed = cta_tile_q * d * q_bytes
    ctas = 2 if smem_per_sm >= 2 * (fixed + per) else 1
    max_smem = min(smem_per_sm // ctas, cap)
    smem_cap = (max_smem - fixed) // per
    reg_cap = 2 if (d >= 128 and num_mma_q == 2 and rope_llama) else 8 // num_mma_q
    m = min(smem_cap, reg_cap)
    for v in (8, 4, 2, 1):
        if m >= v:
            return v
    return 0


def flashinfer_cases():
    out = []
    for mach in ["a100", "a10", "l40s", "rtx4090", "h100-sxm", "h200", "b200", "rtx5090"]:
        per_sm, cap = CAP[mach][1], CAP[mach][0]
        for d in [64, 128, 256]:
            for ctq in [16, 64, 128]:
                if ctq == 128 and d >= 256:
                    continue  # upstream picks 128 rows only below d = 256
                for rope in [0, 1]:
                    n = flashinfer_num_mma_kv(per_sm, cap, d, ctq, rope)
                    if n == 0:
                        continue
                    out.append(case(f"G-flashinfer-{mach}-d{d}-q{ctq}-rope{rope}", mach, "flashinfer-prefill",
                                    {"d": d, "cta_tile_q": ctq, "q_bits": 16, "kv_bits": 16, "rope_llama": rope},
                                    None, ["max num_mma_kv"], {"num_mma_kv": n}, "formula",
                                    "prefill.cuh NUM_MMA_KV from shared memory and registers"))
    return out


# ---------------------------------------------------------------- Triton
# triton-lang/triton @ 0d30401a, python/triton/ops/matmul_perf_model.py
# early_config_prune: (BLOCK_M + BLOCK_N) * BLOCK_K * num_stages * dtsize <= max_shared_mem
def triton_prune_fits(cap, bm, bn, bk, s, bits):
    return (bm + bn) * bk * s * bits // 8 <= cap


def triton_cases():
    out = []
    tiles = [(128, 256, 64), (256, 128, 32), (128, 128, 64), (128, 64, 32), (64, 128, 32),
             (64, 64, 64), (64, 32, 32), (32, 64, 32), (256, 64, 128), (128, 128, 128)]
    for mach in ["a100", "rtx4090", "h100-sxm", "b200", "mi300x", "mi355x"]:
        cap = CAP[mach][0]
        for bm, bn, bk in tiles:
            for bits in [8, 16, 32]:
                for s in [2, 3, 4, 5, 6]:
                    out.append(case(f"G-triton-{mach}-{bm}x{bn}x{bk}-s{s}-b{bits}", mach, "triton-matmul",
                                    {"dt_bits": bits, "buffer_offset": 0},
                                    {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "num_stages": s}, None,
                                    {"fits": triton_prune_fits(cap, bm, bn, bk, s, bits)}, "fits",
                                    "early_config_prune shared-memory test"))
            # the most stages the prune keeps (within Triton's 1..32), once per tile
            best = max([s for s in range(1, 33) if triton_prune_fits(cap, bm, bn, bk, s, 16)], default=0)
            if best:
                out.append(case(f"G-triton-{mach}-{bm}x{bn}x{bk}-maxstages", mach, "triton-matmul",
                                {"dt_bits": 16, "buffer_offset": 0},
                                {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk}, ["max num_stages"],
                                {"num_stages": best}, "formula", "largest num_stages early_config_prune keeps"))
    # AMD stream pipeliner (third_party/amd/lib/TritonAMDGPUTransforms/StreamPipeline.cpp
    # initSchedule): max(1, num_stages - 1) LDS buffers without async copy.
    for mach in ["mi300x", "mi355x"]:
        cap = CAP[mach][0]
        for bm, bn, bk in tiles:
            for s in [2, 3, 4]:
                nbuf = max(1, s - 1)
                out.append(case(f"G-triton-amd-{mach}-{bm}x{bn}x{bk}-s{s}-compiled", mach, "triton-matmul",
                                {"dt_bits": 16, "buffer_offset": -1},
                                {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "num_stages": s}, None,
                                {"fits": (bm + bn) * bk * 2 * nbuf <= cap}, "fits",
                                "AMD stream pipeliner: num_stages - 1 LDS buffers of A and B"))
    return out


# ---------------------------------------------------------------- FlashMLA
# deepseek-ai/FlashMLA @ 9241ae3e, csrc/sm90/decode/dense/traits.h SharedMemoryPlan
def flashmla_bytes(k_buffers, d=576, br=64, bc=64, e=2):
    plan = [br * d * e] + [bc * d * e] * k_buffers + [br * bc * e, br * 4, br * 2 * 4, br * 4, br * 4]
    barriers = 8 * (k_buffers * (d // 64) + 1)
    return up(sum(plan) + barriers, 16)


def flashmla_cases():
    out = []
    for mach in ["h100-sxm", "h100-pcie", "h200"]:
        for k in range(1, 5):
            size = flashmla_bytes(k)
            out.append(case(f"G-flashmla-{mach}-{k}kbuf", mach, "flashmla-sm90-decode", {"d": 576, "dv": 512},
                            {"B_r": 64, "B_c": 64, "k_buffers": k}, None, {"fits": size <= CAP[mach][0]}, "fits",
                            f"SharedMemoryPlan with {k} K buffers: {size} B"))
    return out


def case(cid, machine, workset, params, fix, objective, expect, kind, comment):
    c = {"id": cid, "machine": machine, "workset": workset, "params": params}
    if fix:
        c["fix"] = fix
    if objective:
        c["objective"] = objective
    c["expect"] = expect
    c["kind"] = kind
    c["comment"] = "generated by tests/data/validate/gen/kernels2.py: " + comment
    return c


FAMILIES = {
    "attention-bwd": (("fa4-bwd", "fa3-bwd", "fa2-bwd"), lambda: fa4_bwd_cases() + fa3_bwd_cases() + fa2_bwd_cases()),
    "cutedsl": (("cutedsl-sm90-gemm", "cutedsl-sm100-gemm", "cutedsl-sm120-gemm"), dsl_cases),
    "flashinfer": (("flashinfer-prefill",), flashinfer_cases),
    "triton": (("triton-matmul",), triton_cases),
    "flashmla": (("flashmla-sm90-decode",), flashmla_cases),
}


def main():
    shared = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
    here = os.path.dirname(os.path.abspath(__file__))
    for fam, (worksets, gen) in FAMILIES.items():
        with open(os.path.join(here, "..", fam + ".jsonl"), "w") as f:
            for c in shared:
                if c["workset"] in worksets:
                    f.write(json.dumps(c) + "\n")
            for c in gen():
                f.write(json.dumps(c) + "\n")


if __name__ == "__main__":
    main()
