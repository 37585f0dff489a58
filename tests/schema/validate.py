"""The shipped JSON Schema against real outputs, with Debian's python3-jsonschema.

Usage: python3 tests/schema/validate.py TILEFIT SCHEMA (run by `make check`
as `make check-schema`, from the top of the tree, TILEFIT_DATA set).

Every documented kind of JSON output is produced by running the binary,
and every document (or every line, for JSON Lines) must validate against
the whole schema, and match exactly one of the kinds its top-level oneOf
lists: the one the table below expects.  A few outputs must also hold
what makes them worth validating (an rf memory with its unit, an
explanation, a sweep error line), so a change that drops them cannot make
the test pass by testing less.
"""
import json
import os
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:
    sys.exit("check-schema: python3-jsonschema is missing (make deps installs it)")

FA4 = ["-m", "b200", "-w", "fa4-fwd", "-p", "d=128", "-p", "dv=128"]
FA4_FIXED = FA4 + ["--fix", "B_r=128", "--fix", "B_c=128", "--fix", "q_stage=2"]
TRITON = ["-m", "rtx4090", "-w", "triton-matmul", "tests/data/prune/triton-configs.jsonl"]


def rf_memory(doc):
    return doc.get("memories", {}).get("rf", {}).get("unit") == "registers/thread"


def has_explain(doc):
    return "explain" in doc


def error_line(doc):
    return doc.get("status") == "error" and bool(doc.get("error"))


def all_of(pred):
    return lambda docs: all(pred(d) for d in docs)


# (what, arguments after the binary, exit code, "doc" or "lines", the kind, a
# check on the parsed documents or None).  @TMP@ is a per-run directory.
CASES = [
    ("an answer with an rf memory", ["solve", "-m", "h100-sxm", "-w", "fa3-fwd", "-p", "d=128", "--json"], 0,
     "doc", "answer", all_of(rf_memory)),
    ("an answer with Q in registers", ["solve", "-m", "a100", "-w", "fa2-fwd", "-p", "q_in_regs=1", "--json"], 0,
     "doc", "answer", all_of(lambda d: d.get("placement", {}).get("Q") == "rf")),
    ("an answer with --explain", ["solve"] + FA4_FIXED + ["--objective", "max stages", "--explain", "--json"], 0,
     "doc", "answer", all_of(has_explain)),
    ("--explain with a placement", ["solve", "-m", "h100-sxm", "-w", "fa3-fwd", "-p", "d=128", "--explain", "--json"],
     0, "doc", "answer", all_of(lambda d: d["explain"]["placement"][0]["alternatives"][0]["violated"]["kind"]
                                == "memory")),
    ("--explain with a binding count", ["solve", "-m", "h100-sxm", "-w", "cutlass-sm90-gemm", "-p", "epilogue_bytes=33792",
                                        "--fix", "tile_m=128", "--fix", "tile_n=256", "--fix", "tile_k=64",
                                        "--explain", "--json"], 0, "doc", "answer",
     all_of(lambda d: d["explain"]["binding"][0]["violated"]["over"] == 47184)),
    ("an infeasible answer", ["solve"] + FA4 + ["--require", "stages >= 400", "--json"], 1, "doc", "answer", None),
    ("--jsonl", ["solve"] + FA4 + ["--jsonl"], 0, "lines", "answer", None),
    ("check", ["check"] + FA4_FIXED + ["--fix", "stages=3", "--json"], 0, "doc", "answer", None),
    ("check, does not fit", ["check"] + FA4_FIXED + ["--fix", "stages=9", "--json"], 1, "doc", "answer", None),
    ("--top", ["solve"] + FA4 + ["--top", "3", "--json"], 0, "doc", "top", None),
    ("--top, infeasible", ["solve"] + FA4 + ["--require", "stages >= 400", "--top", "2", "--json"], 1, "doc", "top",
     None),
    ("--top --jsonl", ["solve"] + FA4 + ["--top", "3", "--jsonl"], 0, "lines", "answer", None),
    ("validate --json", ["validate", "--json", "tests/data/validate/triton.jsonl"], 0, "doc", "validate", None),
    ("validate --jsonl", ["validate", "--jsonl", "tests/data/validate/flashattention.jsonl"], 0, "lines", "case",
     None),
    ("validate --json, measured cases", ["validate", "--json", "tests/data/measured-fixture/toy.jsonl",
                                         "tests/data/measured/deepgemm.jsonl"], 0, "doc", "validate",
     all_of(lambda d: {c["result"] for c in d["cases"]} == {"measured", "no_fit", "unrepresentable"})),
    ("validate --jsonl, measured cases", ["validate", "--jsonl", "tests/data/measured-fixture/toy.jsonl"], 0, "lines",
     ("case", "measured_line"), None),
    ("sweep lines", ["sweep", "tests/data/sweep/small.json", "-q"], 0, "lines", "sweep_line", None),
    ("sweep error lines", ["sweep", "@TMP@/errors.jsonl", "-q"], 0, "lines", "sweep_line", all_of(error_line)),
    ("merged sweep lines", ["merge", "@TMP@/part-2.jsonl", "@TMP@/part-1.jsonl", "-q"], 0, "lines", "sweep_line",
     None),
    ("prune --json", ["prune", "--json"] + TRITON, 0, "doc", "prune",
     lambda docs: {e["fits"] for e in docs[0]} == {True, False}),
    ("prune --json, CUTLASS names", ["prune", "--json", "tests/data/prune/cutlass-names.txt"], 0, "doc", "prune",
     None),
    ("layout --json with lifetimes", ["layout", "-m", "a100", "-w", "tests/data/worksets/lifetimes.json", "--json"], 0,
     "doc", "layout", lambda docs: "union" in docs[0]["layout"]["smem"]),
    ("machines --json", ["machines", "--json"], 0, "doc", "machines_list", None),
    ("machines NAME --json", ["machines", "--json", "b200"], 0, "doc", "machine", None),
    ("worksets --json", ["worksets", "--json"], 0, "doc", "worksets_list", None),
    ("worksets NAME --json", ["worksets", "--json", "triton-matmul"], 0, "doc", "workset",
     all_of(lambda d: d["show"] == ["mma_version", "ab_buffers"] and "gfx950" in d["rule"])),
    ("machines A B C --json", ["machines", "--json", "b200", "h200", "mi300x"], 0, "doc", "machines_compare", None),
    ("machines --unconfirmed --json", ["machines", "--json", "--unconfirmed"], 0, "doc", "unconfirmed", None),
]


def setup(tmp, tilefit):
    """The inputs the sweep cases read: a problem list of bad lines, and two shards."""
    with open(os.path.join(tmp, "errors.jsonl"), "w") as f:
        f.write('{"id":"a","machine":"b200","workset":"nosuch"}\n')
        f.write('{"id":"b","machine":"nosuch","workset":"fa4-fwd"}\n')
    for i in (1, 2):
        subprocess.run([tilefit, "sweep", "tests/data/sweep/small.json", "--shard", "%d/2" % i, "-q", "-o",
                        os.path.join(tmp, "part-%d.jsonl" % i)], check=True)


def documents(text, mode):
    if mode == "doc":
        return [json.loads(text)]
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def kind_validators(schema):
    """A validator per kind of the top-level oneOf, by name."""
    out = {}
    for ref in schema["oneOf"]:
        sub = {k: v for k, v in schema.items() if k != "oneOf"}
        sub["$ref"] = ref["$ref"]
        out[ref["$ref"].rsplit("/", 1)[1]] = jsonschema.Draft202012Validator(sub)
    return out


def run_case(case, kinds, validator, tilefit, tmp):
    what, args, code, mode, kind, holds = case
    argv = [tilefit] + [a.replace("@TMP@", tmp) for a in args]
    r = subprocess.run(argv, capture_output=True, text=True)
    if r.returncode != code:
        return ["%s: exit %d, expected %d: %s" % (what, r.returncode, code, r.stderr.strip())]
    try:
        docs = documents(r.stdout, mode)
    except json.JSONDecodeError as e:
        return ["%s: not JSON: %s" % (what, e)]
    if not docs:
        return ["%s: no output" % what]
    # a pair of kinds: every line is the first, the last line the second
    kind_of = (lambda i: kind) if isinstance(kind, str) else (lambda i: kind[1] if i == len(docs) - 1 else kind[0])
    for k in {kind_of(i) for i in range(len(docs))}:
        if k not in kinds:
            return ["%s: the schema has no kind %s" % (what, k)]
    bad = []
    for i, doc in enumerate(docs):
        k = kind_of(i)
        where = what if mode == "doc" else "%s, line %d" % (what, i + 1)
        if validator.is_valid(doc) and kinds[k].is_valid(doc):
            continue
        for e in sorted(kinds[k].iter_errors(doc), key=lambda e: list(e.absolute_path))[:3]:
            bad.append("%s: as %s: %s at $%s" % (where, k, e.message[:200],
                                                 "".join("[%r]" % p for p in e.absolute_path)))
        matched = [name for name, v in kinds.items() if v.is_valid(doc)]
        bad.append("%s: matches %s, expected exactly %s" % (where, matched or "no kind", k))
    if holds and not holds(docs):
        bad.append("%s: the output lacks what this case is for" % what)
    if len(bad) > 4:
        bad[4:] = ["%s: and %d more" % (what, len(bad) - 4)]
    return bad


def main():
    tilefit, schema_path = sys.argv[1], sys.argv[2]
    with open(schema_path) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    kinds = kind_validators(schema)
    bad = []
    with tempfile.TemporaryDirectory(prefix="tilefit-schema-") as tmp:
        setup(tmp, tilefit)
        for case in CASES:
            bad += run_case(case, kinds, validator, tilefit, tmp)
    for line in bad:
        print("check-schema: " + line, file=sys.stderr)
    if bad:
        sys.exit(1)
    print("check-schema: %d kinds of output validate against %s, each as exactly its kind" % (len(CASES), schema_path))


if __name__ == "__main__":
    main()
