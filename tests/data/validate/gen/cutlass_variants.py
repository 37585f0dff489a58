#!/usr/bin/python3
"""Validation cases for the CUTLASS variant worksets, from CUTLASS's own builder formulas.

Each function below re-implements one stage-count builder of NVIDIA/cutlass @ 7107b055
the way the C++ computes it (constexpr integer arithmetic, bits_to_bytes, round_up, the
capacity and carveout it passes), independently of tilefit's workset expressions. Sources:
the builders named in CITE below (file:line at that commit).

    /usr/bin/python3 tests/data/validate/gen/cutlass_variants.py SHARED.jsonl \
        > tests/data/validate/cutlass-variants.jsonl

SHARED.jsonl (stage counts printed by nvcc 13.0 from the unmodified builders) is copied first, each case
checked against the formula here (the script stops if one disagrees); then come the
generated cases: `formula` cases with the builder's stage count, `fits` cases at the count
(fits) and one above it (does not), and `fits` cases for configurations the builder rejects
(fewer than 2 stages, which every collective static_asserts, or a static_assert on the tile).
"""
import itertools
import json
import random
import sys

SM90_CAP = 232448    # detail::sm90_smem_capacity_bytes
SM100_CAP = 232448   # detail::sm100_smem_capacity_bytes (sm103 the same)
SM120_CAP = 101376   # detail::sm120_smem_capacity_bytes


def b2b(bits):
    """cutlass::bits_to_bytes"""
    return (bits + 7) // 8


def round_up(x, a):
    return (x + a - 1) // a * a


def shape_div(a, b):
    """cute::shape_div on integers: a / b, or 1 when b does not fit into a."""
    return a // b if a // b != 0 else 1


class Reject(Exception):
    """The builder does not compile this configuration (a static_assert)."""


# ------------------------------------------------------------------ SM90
def sm90_mixed(c):
    """sm90_gmma_builder.inl compute_stage_count_or_override_single_affine_transformed_input"""
    m, n, k = c["tile_m"], c["tile_n"], c["tile_k"]
    align = c["smem_align"]
    capacity_ = SM90_CAP - c["kernel_carveout"]
    scale_bytes = b2b(c["scale_bits"] * m * 1)
    zero_bytes = b2b(c["zero_bits"] * m * 1)
    if scale_bytes % 128 or zero_bytes % 128:
        raise Reject("scale/zero bytes must be a multiple of 128")
    stage_ = b2b(c["a_bits"] * m * k) + b2b(c["b_bits"] * n * k) + scale_bytes + zero_bytes
    stage = round_up(stage_, align) + 16
    carveout = round_up(c["epilogue_bytes"], align)
    capacity = capacity_ // align * align
    return {"stages": (capacity - carveout) // stage}


def sm90_blockwise(c):
    """sm90_gmma_builder.inl compute_stage_count_with_blockwise_scale"""
    m, n, k = c["tile_m"], c["tile_n"], c["tile_k"]
    if m not in (128, 256):
        raise Reject("NumSplitsM must be 1 or 2")
    if m % c["scale_gran_m"] or n % c["scale_gran_n"]:
        raise Reject("granularity must divide the tile")
    ms, ns = m // c["scale_gran_m"], n // c["scale_gran_n"]
    sb = c["scale_bits"]
    stage_ = b2b(c["a_bits"] * m * k) + b2b(c["b_bits"] * n * k) + b2b(sb * ms) + b2b(sb * ns)
    stage = round_up(stage_, 128) + 16
    capacity = (SM90_CAP - c["kernel_carveout"]) // 128 * 128
    return {"stages": (capacity - round_up(c["epilogue_bytes"], 128)) // stage}


def sm90_sparse(c):
    """sm90_sparse_gmma_builder.inl compute_stage_count_or_override_sparse: no rounding"""
    m, n, k = c["tile_m"], c["tile_n"], c["tile_k"]
    a_stored_bits = c["a_bits"] // 2          # sizeof_bits<sparse_elem<2, T>>
    e_bits = 2 if c["a_bits"] == 32 else 1
    stage = b2b(a_stored_bits * m * k) + b2b(c["b_bits"] * n * k) + b2b(e_bits * m * k) + 16
    return {"stages": (SM90_CAP - c["epilogue_bytes"]) // stage}


def sm90_conv(c):
    """conv/collective/builders/sm90_gmma_builder.inl compute_stage_count_or_override"""
    m, n, k = c["tile_m"], c["tile_n"], c["tile_k"]
    stage = b2b(c["a_bits"] * m * k) + b2b(c["b_bits"] * n * k) + 16
    return {"stages": (SM90_CAP - c["epilogue_bytes"]) // stage}


def sm90_dense(c):
    """sm90_gmma_builder.inl compute_stage_count_or_override, 232448 - KernelSmemCarveout passed"""
    m, n, k = c["tile_m"], c["tile_n"], c["tile_k"]
    stage = round_up(b2b(c["a_bits"] * m * k) + b2b(c["b_bits"] * n * k), 128) + 16
    capacity = (SM90_CAP - c["kernel_carveout"]) // 128 * 128
    return {"stages": (capacity - round_up(c["epilogue_bytes"], 128)) // stage}


# ------------------------------------------------------------------ SM100
def sm100_tiles(c):
    cg = c["cta_group"]
    m, n = c["tile_m"], c["tile_n"]
    if not (64 * cg <= m <= 128 * cg) or n > 256:
        raise Reject("UMMA tile shape")
    return m // cg, n // cg


def sm100_dense(c):
    """sm100_umma_builder.inl sm100_compute_stage_count_or_override + Sm100DenseGemmTmaUmmaCarveout"""
    cta_m, cta_n = sm100_tiles(c)
    k, cg = c["tile_k"], c["cta_group"]
    if cg == 2 or cta_m > 64:
        acc = min(4, 65536 // (cta_m * c["tile_n"]))
    else:
        acc = min(4, (512 // c["tile_n"]) * 2)
    ptr = c.get("grouped", 0) or c.get("ptr_array", 0)
    sched = 8 if c.get("grouped", 0) else 2
    resp = 2 if ptr else 1
    carve = (16 * acc + 16 * sched * resp + 16 + 16 * sched * resp + 16 * sched + 8 + 4 * sched
             + (128 * 2 * 5 + 16 * sched if ptr else 0))
    stage = b2b(max(c["a_bits"], 8) * cta_m * k) + b2b(max(c["b_bits"], 8) * cta_n * k) + 16
    return {"stages": (SM100_CAP - carve - c["epilogue_bytes"]) // stage}


def sm100_conv(c):
    """conv/collective/builders/sm100_umma_builder.inl: KernelSmemCarveout 92, conv stage formula"""
    cta_m, cta_n = sm100_tiles(c)
    k = c["tile_k"]
    carve = 2 * 16 + 16 + 16 + 16 + 8 + 4       # acc pipeline (2), CLC pipeline, response, order, dealloc, ptr
    stage = b2b(c["a_bits"] * cta_m * k) + b2b(c["b_bits"] * cta_n * k) + 16
    return {"stages": (SM100_CAP - carve - c["epilogue_bytes"]) // stage}


def sm100_blockwise(c):
    """sm100_blockwise_umma_builder.inl: uncapped accumulator stages, acc + 1 scheduler stages"""
    cta_m, cta_n = sm100_tiles(c)
    m, n, k, cg = c["tile_m"], c["tile_n"], c["tile_k"], c["cta_group"]
    gm, gn, gk = c["scale_gran_m"], c["scale_gran_n"], c["scale_gran_k"]
    if m % gm or n % gn or k % gk:
        raise Reject("granularity must divide the tile")
    if cta_m < gm or n < gn or k < gk:
        raise Reject("Scale Granularity must be smaller than or equal to the tile shape")
    acc = 65536 // (cta_m * n) if (cg == 2 or cta_m > 64) else (512 // n) * 2
    grouped = c["grouped"]                          # pointer strides: no CLC scheduler
    array = grouped or c.get("ptr_array", 0)        # IsArrayOfPointersGemm schedule
    sched = 1 if grouped else acc + 1
    resp = 2 if array else 1
    carve = (16 * acc + 16 * sched * resp + 16 + 16 * sched * resp + 16 * sched + 8 + 4 * sched
             + (128 * 2 * 5 + 16 * sched if array else 0))
    kt = k // gk
    sb = c["scale_bits"]
    scales = b2b(sb * (m // gm) * kt) + b2b(sb * (n // gn) * kt)
    stage = round_up(b2b(c["a_bits"] * cta_m * k) + b2b(c["b_bits"] * cta_n * k) + scales, 128) + 16 + 16
    return {"stages": (SM100_CAP - carve - c["epilogue_bytes"]) // stage}


def sm100_sparse(c):
    """sm100_sparse_umma_builder.inl sm100_compute_stage_count_or_override_sparse"""
    cta_m, cta_n = sm100_tiles(c)
    k = c["tile_k"]
    acc = 1 if c["tile_n"] > 224 else 2
    carve = 144 + 16 * acc
    raw_a = max(c["a_bits"], 8)                       # sub-byte A staged as uint8
    two_kphase = b2b(raw_a * k) == 128 and raw_a in (16, 32)
    e_bits = 2 if c["a_bits"] == 32 else 1
    tensor = round_up(b2b(raw_a // 2 * cta_m * k) + b2b(max(c["b_bits"], 8) * cta_n * k)
                      + b2b(e_bits * cta_m * k * (2 if two_kphase else 1)), 128)
    return {"stages": (SM100_CAP - carve - c["epilogue_bytes"]) // (tensor + 16)}


def sm100_mixed(c):
    """sm100_mixed_input_umma_builder.inl sm100_compute_stage_count_or_override_mixed_input"""
    cg = c["cta_group"]
    m, n, k = c["tile_m"], c["tile_n"], c["tile_k"]
    if not (64 * cg <= m <= 128 * cg):
        raise Reject("UMMA tile shape")
    if n > 128:
        raise Reject("Can't support CtaN>128 tiles")
    cta_m = m // cg
    capacity = SM100_CAP - (48 + 48 + 48 + 8 + 4)     # ReducedSmemCapacityBytes
    acc_words = n // 2 if (cta_m == 64 and cg == 2) else n
    in_tmem = not c.get("a_in_smem", 0)             # IsAComputeinTmem
    if in_tmem:
        acc = 2 if acc_words == 128 else 3
    else:
        acc = 512 // acc_words
    after_acc = capacity - (c["epilogue_bytes"] + acc * 32)
    tmem_a = (512 - acc * acc_words) // (k // 2) if in_tmem else 10000
    a_bits = max(c["a_bits"], 8)                      # TmaElementA is uint8_t for sub-byte A
    gk = c["scale_gran_k"]
    ab = (b2b(a_bits * cta_m * k) + b2b(c["scale_bits"] * cta_m * k // gk)
          + b2b(c["zero_bits"] * cta_m * k // gk) + b2b(c["b_bits"] * n // cg * k) + 16 + 16)
    a_compute_bits = c["b_bits"]                      # ElementAMma = the MMA type, B's
    compute = (0 if in_tmem else b2b(a_compute_bits * m // cg * k)) + 16
    t2m = min(tmem_a, after_acc // (ab + compute))
    l2t = (after_acc - t2m * compute) // ab
    if t2m < 2 or acc < 2:
        raise Reject("Not enough SMEM or TMEM capacity (Transform2Mma or accumulator stages < 2)")
    return {"stages": l2t}


def sm103_ultra(c):
    """sm103_blockscaled_umma_builder.inl sm103_compute_stage_count_or_override_blockscaled"""
    cg = c["cta_group"]
    m, n = c["tile_m"], c["tile_n"]
    if m not in (128, 256) or n % 64 or n > 256 or c["tile_k"] != 768:
        raise Reject("SM103 ultra tile shape")
    if cg == 1 and m != 128:
        raise Reject("MMA M-mode size should be 128 for 1 CTA cluster MMA")
    acc = 1 if n == 256 else 2
    carve = 16 * acc + 48 + 16 + 48 + 48 + 8 + 4 * acc + (128 * 4 if c.get("ptr_array", 0) else 0)
    mma_m = m // cg
    sf_cols = 12          # 768 / SF_BUFFERS_PER_TILE_K(4 or 2) / sf_vec(16 or 32) vectors x 4
    sfa = 128 * shape_div(mma_m, 128) * sf_cols                    # 128-row SfAtom
    if n == 128:
        sfb = 128 * sf_cols                                        # SfAtom
    else:
        n_sfb = 256 if n == 192 else n
        sfb = 256 * shape_div(n_sfb, 256) * sf_cols                # SfKMajorAtom256
    stage = 128 * mma_m + 128 * (n // cg) + 16 * 2 + sfa + sfb
    room = SM100_CAP - carve - c["epilogue_bytes"]
    ab = room // stage
    sf = ab + (room - ab * stage) // (16 + sfa + sfb)
    return {"stages": ab, "sf_stages": sf}


# ------------------------------------------------------------------ SM120
def sm120_sparse(c):
    """sm120_sparse_mma_builder.inl sm120_compute_stage_count_or_override_sparse"""
    m, n, k = c["tile_m"], c["tile_n"], c["tile_k"]
    a_bits, b_bits, e_bits = 4, 8, c["e_bits"]        # sparse_elem<2, uint8_t>, uint8_t
    room = SM120_CAP - c["epilogue_bytes"]
    full = b2b(a_bits * m * k) + b2b(b_bits * n * k) + b2b(e_bits * m * k) + 8 * 3
    s = room // full
    if s >= 2:
        return {"stages": s}
    half = b2b(a_bits * m * k) + b2b(b_bits * n * k) * 3 // 4 + 8 * 3
    return {"stages": room // half}


def sm120_blockwise(c):
    """sm120_blockwise_mma_builder.inl sm120_compute_stage_count_or_override_blockwise"""
    m, n, k = c["tile_m"], c["tile_n"], c["tile_k"]
    if m % c["scale_gran_m"] or n % c["scale_gran_n"]:
        raise Reject("granularity must divide the tile")
    sb = c["scale_bits"]
    stage = (m * k + n * k + b2b(sb * (m // c["scale_gran_m"])) + b2b(sb * (n // c["scale_gran_n"])) + 16)
    return {"stages": (SM120_CAP - c["epilogue_bytes"]) // stage}


# Registers per consumer thread of the SM90 worksets that count them, as the
# worksets do (acc, the mixed-input A as loaded and converted, sparse metadata) against the
# consumers' budget: setmaxnreg 232, or 240 from 208 accumulator elements a
# thread; the conv kernel (one MMA warpgroup, no setmaxnreg) 255.
def sm90_registers(workset, c):
    m, n, k = c["tile_m"], c["tile_n"], c["tile_k"]
    if workset == "cutlass-sm90-conv":
        return -(-m * n // 128), 255
    sched = c.get("schedule", 0)
    threads = 128 if (m < 128 if sched == 0 else sched == 2) else 256
    fp8 = c["a_bits"] == 8 and c["b_bits"] == 8 and not c.get("fp8_fastaccum", 0)
    copies = 2 if workset == "cutlass-sm90-gemm-blockwise" or (workset == "cutlass-sm90-gemm-sparse" and fp8) else 1
    need = copies * -(-m * n // threads)
    if workset == "cutlass-sm90-gemm-mixed":
        need += -(-m * k * c["b_bits"] // (32 * threads)) + -(-m * k * c["a_bits"] // (32 * threads))
    if workset == "cutlass-sm90-gemm-sparse":
        need += -(-c.get("e_bits", 2 if c["a_bits"] == 32 else 1) * m * k // (32 * threads))
    return need, 240 if m * n >= 208 * threads else 232


REGISTER_WORKSETS = ("cutlass-sm90-conv", "cutlass-sm90-gemm-blockwise", "cutlass-sm90-gemm-mixed",
                     "cutlass-sm90-gemm-sparse")


def builder_count_only(out):
    """A builder-formula case whose tile the registers refuse checks the
    builder's SMEM count: rf_model 0, as check --cutlass-name counts it."""
    if out["workset"] not in REGISTER_WORKSETS or out["params"].get("rf_model") == 0:
        return out
    need, budget = sm90_registers(out["workset"], dict(out["params"], **out["fix"]))
    if need > budget:
        out["params"]["rf_model"] = 0
        out["comment"] += "; rf_model 0: the builder's SMEM count (the tile needs %d registers per consumer thread of %d)" % (need, budget)
    return out


TILE_KEYS = ("tile_m", "tile_n", "tile_k")
# The builder of each family (the number in FAMILIES), inside include/cutlass/ @ 7107b055.
CITE = {2: "gemm/collective/builders/sm100_umma_builder.inl:84-98 and sm100_pipeline_carveout.inl:37-85",
        3: "gemm/collective/builders/sm90_gmma_builder.inl:136-163",
        4: "gemm/collective/builders/sm90_gmma_builder.inl:88-107",
        5: "gemm/collective/builders/sm90_sparse_gmma_builder.inl:66-78",
        6: "gemm/collective/builders/sm100_blockwise_umma_builder.inl:90-113",
        7: "gemm/collective/builders/sm100_sparse_umma_builder.inl:75-112",
        8: "gemm/collective/builders/sm100_mixed_input_umma_builder.inl:81-139",
        9: "gemm/collective/builders/sm103_blockscaled_umma_builder.inl:69-87",
        10: "gemm/collective/builders/sm120_sparse_mma_builder.inl:64-115",
        11: "gemm/collective/builders/sm120_blockwise_mma_builder.inl:72-90",
        12: "conv/collective/builders/sm90_gmma_builder.inl:64-74",
        13: "conv/collective/builders/sm100_umma_builder.inl:173-203"}
FAMILIES = {
    # workset: (builder, machines, {param or tile: values}, CITE key)
    "cutlass-sm90-gemm-mixed": (sm90_mixed, ["h100-sxm", "h200"], {
        "tile_m": [64, 128, 256], "tile_n": [64, 128, 256], "tile_k": [64, 128, 256],
        "a_bits": [4, 8], "b_bits": [16], "scale_bits": [0, 16], "zero_bits": [0, 16],
        "smem_align": [1024], "epilogue_bytes": [1, 17408, 33792, 67584], "kernel_carveout": [0, 640]}, 3),
    "cutlass-sm90-gemm-blockwise": (sm90_blockwise, ["h100-sxm", "h200", "h100-pcie"], {
        "tile_m": [128, 256], "tile_n": [64, 128, 256], "tile_k": [64, 128, 256],
        "a_bits": [8], "b_bits": [8], "scale_bits": [32], "scale_gran_m": [1, 128], "scale_gran_n": [64, 128],
        "epilogue_bytes": [17408, 33792, 67584], "kernel_carveout": [0, 256, 384]}, 4),
    "cutlass-sm90-gemm-sparse": (sm90_sparse, ["h100-sxm", "h200"], {
        "tile_m": [64, 128, 256], "tile_n": [64, 128, 256], "tile_k": [64, 128, 256],
        "a_bits": [8, 16, 32], "b_bits": ["a_bits"], "epilogue_bytes": [0, 17408, 33792, 67584]}, 5),
    "cutlass-sm90-conv": (sm90_conv, ["h100-sxm", "h200"], {
        "tile_m": [64, 128, 256], "tile_n": [64, 128, 256], "tile_k": [32, 64, 128],
        "a_bits": [8, 16, 32], "b_bits": ["a_bits"], "epilogue_bytes": [0, 17408, 34816, 67584]}, 12),
    "cutlass-sm100-conv": (sm100_conv, ["b200", "gb200"], {
        "tile_m": [64, 128, 256], "tile_n": [64, 128, 256], "tile_k": [32, 64, 128],
        "a_bits": [8, 16, 32], "b_bits": ["a_bits"], "cta_group": [1, 2], "epilogue_bytes": [0, 17408, 33792, 67584]}, 13),
    "cutlass-sm100-gemm": (sm100_dense, ["b200", "gb200"], {
        "tile_m": [64, 128, 256], "tile_n": [64, 128, 192, 256], "tile_k": [64, 128],
        "a_bits": [8, 16], "b_bits": ["a_bits"], "cta_group": [1, 2], "grouped": [0], "ptr_array": [1],
        "epilogue_bytes": [17408, 33792, 67584]}, 2),
    "cutlass-sm100-gemm-blockwise": (sm100_blockwise, ["b200", "gb200"], {
        "tile_m": [64, 128, 256], "tile_n": [64, 128, 256], "tile_k": [128, 256],
        "a_bits": [8], "b_bits": [8], "scale_bits": [32], "scale_gran_m": [1, 128], "scale_gran_n": [64, 128],
        "scale_gran_k": [128], "cta_group": [1, 2], "grouped": [0, 1], "ptr_array": [0, 1],
        "epilogue_bytes": [17408, 33792, 67584]}, 6),
    "cutlass-sm100-gemm-sparse": (sm100_sparse, ["b200", "gb200"], {
        "tile_m": [64, 128, 256], "tile_n": [64, 128, 192, 256], "tile_k": [64, 128, 256],
        "a_bits": [8, 16, 32], "b_bits": ["a_bits"], "cta_group": [1, 2],
        "epilogue_bytes": [16672, 33344, 50224, 66624]}, 7),
    "cutlass-sm100-gemm-mixed": (sm100_mixed, ["b200", "gb200"], {
        "tile_m": [64, 128, 256], "tile_n": [64, 128], "tile_k": [64, 128, 256],
        "a_bits": [4, 8], "b_bits": [16], "scale_bits": [0, 16], "zero_bits": [0, 16], "scale_gran_k": [64, 128],
        "cta_group": [1, 2], "epilogue_bytes": [17408, 34816, 67584], "a_in_smem": [0, 1]}, 8),
    "cutlass-sm103-gemm-blockscaled-ultra": (sm103_ultra, ["b300"], {
        "tile_m": [128, 256], "tile_n": [128, 192, 256], "tile_k": [768],
        "cta_group": [1, 2], "sf_vec": [16, 32], "epilogue_bytes": [32, 17408, 33792, 67584]}, 9),
    "cutlass-sm120-gemm-sparse": (sm120_sparse, ["rtx5090", "rtx-pro-6000"], {
        "tile_m": [64, 128], "tile_n": [64, 128, 256], "tile_k": [128, 256],
        "a_bits": [4, 6, 8], "b_bits": ["a_bits"], "e_bits": [1], "epilogue_bytes": [0, 9216, 13312]}, 10),
    "cutlass-sm120-gemm-blockwise": (sm120_blockwise, ["rtx5090", "rtx-pro-6000"], {
        "tile_m": [64, 128], "tile_n": [64, 128, 256], "tile_k": [64, 128],
        "a_bits": [8], "b_bits": [8], "scale_bits": [32], "scale_gran_m": [1, 64], "scale_gran_n": [64, 128],
        "epilogue_bytes": [0, 9216, 13312]}, 11),
}
BUILDERS = {w: f[0] for w, f in FAMILIES.items()}
BUILDERS["cutlass-sm90-gemm"] = sm90_dense


def configs(space, rng, count):
    keys = list(space)
    grid = list(itertools.product(*(space[k] for k in keys)))
    rng.shuffle(grid)
    for values in grid[:count]:
        c = dict(zip(keys, values))
        for k, v in list(c.items()):
            if isinstance(v, str):
                c[k] = c[v]
        yield c


def case(cid, machine, workset, c, kind, expect, comment, stages=None, sf_stages=None):
    fix = {k: c[k] for k in TILE_KEYS}
    if stages is not None:
        fix["stages"] = stages
    if stages is not None and workset == "cutlass-sm103-gemm-blockscaled-ultra":
        fix["sf_stages"] = sf_stages or stages     # the SF ring holds at least the A/B stages
    out = {"id": cid, "machine": machine, "workset": workset,
           "params": {k: v for k, v in c.items() if k not in TILE_KEYS}, "fix": fix}
    if kind == "formula":
        out["objective"] = ["max stages", "max sf_stages"] if "sf_stages" in expect else ["max stages"]
    out.update({"expect": expect, "kind": kind, "comment": comment})
    return builder_count_only(out)


SHORT = {"a_bits": "a", "b_bits": "b", "e_bits": "e", "scale_bits": "s", "zero_bits": "z",
         "smem_align": "al", "epilogue_bytes": "epi", "kernel_carveout": "kc", "cta_group": "cg",
         "grouped": "grp", "ptr_array": "pa", "sf_vec": "vs", "a_in_smem": "as",
         "scale_gran_m": "gm", "scale_gran_n": "gn", "scale_gran_k": "gk"}


def tag(c):
    bits = "-".join("%s%d" % (SHORT[k], v) for k, v in c.items() if k not in TILE_KEYS)
    return "%dx%dx%d-%s" % (c["tile_m"], c["tile_n"], c["tile_k"], bits)


def generated(rng):
    for workset, (builder, machines, space, sec) in FAMILIES.items():
        short = workset.replace("cutlass-", "")
        src = "CUTLASS @ 7107b055 include/cutlass/%s builder formula (gen/cutlass_variants.py %s)" % (CITE[sec], builder.__name__)
        n = 0
        for c in configs(space, rng, 28):
            machine = machines[n % len(machines)]
            n += 1
            cid = "V-%s-%s-%s" % (short, machine, tag(c))
            try:
                r = builder(c)
            except Reject as why:
                yield case(cid + "-s2-nofit", machine, workset, c, "fits", {"fits": False},
                           "%s: the builder rejects it (%s)" % (src, why), stages=2)
                continue
            s = r["stages"]
            if s < 2:
                yield case(cid + "-s2-nofit", machine, workset, c, "fits", {"fits": False},
                           "%s: %d stage(s), below the static_assert minimum of 2" % (src, s), stages=2)
                continue
            yield case(cid, machine, workset, c, "formula", r, "%s: %s" % (src, r))
            if n % 4 == 0:
                yield case(cid + "-s%d-fits" % s, machine, workset, c, "fits", {"fits": True},
                           "%s: %d stages fit" % (src, s), stages=s, sf_stages=r.get("sf_stages"))
                yield case(cid + "-s%d-nofit" % (s + 1), machine, workset, c, "fits", {"fits": False},
                           "%s: %d stages fit, %d do not" % (src, s, s + 1), stages=s + 1)


# Worked examples that carry more than the shared cases: the printed
# second SM103 count, and the SM90 conv stage the builder leaves unused.
HAND = [
    ("H-u103-mxf4-128x192x768-1sm-voidC-sf", "b300", "cutlass-sm103-gemm-blockscaled-ultra",
     {"tile_m": 128, "tile_n": 192, "tile_k": 768, "cta_group": 1, "sf_vec": 32, "epilogue_bytes": 17408},
     "formula", {"stages": 4, "sf_stages": 11}, None,
     "CUTLASS @ 7107b055 builders/sm103_blockscaled_umma_builder.inl:69-87, printed by nvcc 13.0 (4, 11); the SF pipeline is deeper: 4 + floor(32432 / 4624)"),
    ("H-u103-nvf4-128x256x768-1sm-nosmem-sf", "b300", "cutlass-sm103-gemm-blockscaled-ultra",
     {"tile_m": 128, "tile_n": 256, "tile_k": 768, "cta_group": 1, "sf_vec": 16, "epilogue_bytes": 32},
     "formula", {"stages": 4, "sf_stages": 7}, None,
     "CUTLASS @ 7107b055 builders/sm103_blockscaled_umma_builder.inl:69-87, printed by nvcc 13.0 (4, 7): 4 + floor(17060 / 4624)"),
    ("H-cv90-bf16-64x128x64-s9-unused", "h100-sxm", "cutlass-sm90-conv",
     {"tile_m": 64, "tile_n": 128, "tile_k": 64, "a_bits": 16, "b_bits": 16, "epilogue_bytes": 17408},
     "fits", {"fits": False}, 9,
     "CUTLASS @ 7107b055 include/cutlass/conv/collective/builders/sm90_gmma_builder.inl:64-74: the builder stops at 8 (215040 / 24592); a ninth stage would fit the "
     "kernel's union SharedStorage (197120 + 24592 = 221712) but the builder subtracts the epilogue"),
]


def hand():
    for cid, machine, workset, c, kind, expect, stages, comment in HAND:
        got = BUILDERS[workset](c)
        if kind == "formula" and got != expect:
            sys.exit("%s: builder formula gives %s, the case expects %s" % (cid, got, expect))
        if kind == "fits" and got["stages"] >= stages:
            sys.exit("%s: builder formula gives %s stages" % (cid, got["stages"]))
        yield case(cid, machine, workset, c, kind, expect, comment, stages=stages)


def shared(path):
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            c = json.loads(line)
            got = BUILDERS[c["workset"]](dict(c["params"], **c["fix"]))["stages"]
            if got != c["expect"]["stages"]:
                sys.exit("%s: builder formula gives %d, the case expects %d" % (c["id"], got, c["expect"]["stages"]))
            c["comment"] = "shared case (nvcc-printed builder count)"
            yield builder_count_only(c)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: cutlass_variants.py SHARED.jsonl > cutlass-variants.jsonl")
    rng = random.Random(12)
    seen = set()
    for c in itertools.chain(shared(sys.argv[1]), hand(), generated(rng)):
        if c["id"] in seen:
            sys.exit("duplicate case id %s" % c["id"])
        seen.add(c["id"])
        print(json.dumps(c))


if __name__ == "__main__":
    main()
