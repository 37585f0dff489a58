"""The Python module against the command line: the same problems must give
the same JSON, whether they go through tilefit.solve or `tilefit solve
--json`.  Run by `make check` (check-python) with TILEFIT_LIB, TILEFIT_BIN,
TILEFIT_DATA and PYTHONPATH pointing into the tree."""

import gc
import inspect
import json
import os
import re
import signal
import subprocess
import tempfile
import threading
import time
import unittest

import tilefit

BIN = os.environ.get("TILEFIT_BIN", "./tilefit")

FA4 = dict(params={"d": 128, "dv": 128}, fix={"B_r": 128, "B_c": 128, "q_stage": 2}, objective=["max stages"])
FA4_CLI = ["-m", "b200", "-w", "fa4-fwd", "-p", "d=128", "-p", "dv=128", "--fix", "B_r=128", "--fix", "B_c=128",
           "--fix", "q_stage=2", "--objective", "max stages"]


def cli(*args):
    """Runs the binary; returns (exit code, stdout lines parsed as JSON)."""
    r = subprocess.run([BIN, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return r.returncode, [json.loads(line) for line in r.stdout.splitlines() if line.strip()]


def on_threads(work, n=4):
    """Runs work(i) for i in 0..n-1, each on its own thread; returns the
    exceptions they raised (a thread's exception would otherwise be lost)."""
    errors = []

    def run(i):
        try:
            work(i)
        except Exception as e:
            errors.append(e)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def request_keys():
    """The problem-line keys of model/input/request.h's field table."""
    path = os.path.join(os.environ.get("TILEFIT_DATA", "."), "model", "input", "request.h")
    with open(path) as f:
        return re.findall(r'^  X\(\w+, "(\w+)"', f.read(), re.M)


class Request(unittest.TestCase):
    def test_every_field_of_the_c_table(self):
        keys = request_keys()
        self.assertIn("place", keys)
        self.assertEqual([k for k in keys if k not in ("id", "machine", "workset")], [k for k, _ in tilefit._FIELDS])
        # solve and check take the problem's fields but its id; check no
        # objective (it checks one fixed configuration)
        for fn, not_taken in ((tilefit.problem, ()), (tilefit.solve, ("id",)), (tilefit.check, ("id", "objective"))):
            params = inspect.signature(fn).parameters
            for key in keys:
                if key not in not_taken:
                    self.assertIn(key, params, "%s lacks %s" % (fn.__name__, key))

    def test_every_option_of_the_command_line(self):
        """Each long option of each command's --help is a keyword of the
        function (or Problem method) that does it, but those about output."""
        output = {"json", "jsonl", "csv", "output", "help", "lp", "mps", "format", "resume", "quiet"}
        rename = {"param": "params", "no_presolve": "presolve", "for": "target"}
        functions = {"solve": [tilefit.solve, tilefit.Problem.solve], "check": [tilefit.check, tilefit.Problem.check],
                     "layout": [tilefit.layout, tilefit.Problem.layout], "emit": [tilefit.emit, tilefit.Problem.emit],
                     "sweep": [tilefit.sweep], "validate": [tilefit.validate], "prune": [tilefit.prune],
                     "plot map": [tilefit.plot_map], "plot sweep": [tilefit.plot_sweep]}
        bound = {"machine", "workset", "params", "any_arch"}  # a Problem's, not its methods'
        for cmd, fns in functions.items():
            r = subprocess.run([BIN, *cmd.split(), "--help"], stdout=subprocess.PIPE, text=True, check=True)
            options = {o[2:].replace("-", "_") for o in re.findall(r"^\s+(?:-\w, )?(--[a-z][-a-z]*)", r.stdout, re.M)}
            self.assertIn("help", options)
            for fn in fns:
                params = inspect.signature(fn).parameters
                for o in options - output:
                    key = rename.get(o, o)
                    if fn.__qualname__.startswith("Problem.") and key == "cutlass_name":
                        continue  # a name chooses the workset, which a Problem has
                    if fn.__qualname__.startswith("Problem.") and key in bound:
                        self.assertIn(key, inspect.signature(tilefit.Problem).parameters)
                        continue
                    if cmd == "sweep" and key in ("machine", "workset", "params", "fix", "domain", "require",
                                                  "objective", "any_arch"):
                        continue  # a sweep's points come from its spec or problem list
                    self.assertIn(key, params, "%s --%s has no keyword in %s" % (cmd, o, fn.__qualname__))

    def test_exactly_the_options_of_the_table(self):
        """The library's command-option table (solver/command_options.h,
        the "options" request) is what each function takes: every row
        Python takes for a command is a keyword of its function (renamed
        where Python calls it otherwise), and every keyword is a row or a
        field of the problem.  Suite api holds the command line and the
        JSON API to the same table."""
        rows = tilefit._call({"cmd": "options"})[0]
        functions = {"solve": tilefit.solve, "check": tilefit.check, "layout": tilefit.layout, "emit": tilefit.emit,
                     "sweep": tilefit.sweep, "validate": tilefit.validate, "prune": tilefit.prune,
                     "plot map": tilefit.plot_map, "plot sweep": tilefit.plot_sweep}
        renames = {"emit": {"for": "target"}, "sweep": {"spec": "spec_or_problems", "problems": "spec_or_problems",
                                                         "file": "spec_or_problems"},
                   "prune": {"file": "configs"}, "validate": {"files": "paths"}}
        problem = {"machine", "workset"} | {k for k, _ in tilefit._FIELDS}
        taken = {}
        for row in rows:
            if "python" in row["fronts"]:
                for cmd in row["commands"]:
                    taken.setdefault(cmd, set()).add(renames.get(cmd, {}).get(row["key"], row["key"]))
        self.assertEqual(set(taken) - set(functions), set(), "commands Python lacks")
        for cmd, fn in functions.items():
            params = set(inspect.signature(fn).parameters)
            self.assertEqual(taken.get(cmd, set()) - params, set(), "rows of %s that %s lacks" % (cmd, fn.__name__))
            self.assertEqual(params - taken.get(cmd, set()) - problem, set(),
                             "keywords of %s that are not rows of %s" % (fn.__name__, cmd))
            # a Problem's method: the same, but what the handle bound and a
            # CUTLASS name, which would choose another workset
            method = getattr(tilefit.Problem, fn.__name__, None)
            if method is not None:
                params = set(inspect.signature(method).parameters) - {"self"}
                want = taken.get(cmd, set()) - {"cutlass_name"}
                self.assertEqual(want - params, set(), "rows of %s that Problem.%s lacks" % (cmd, fn.__name__))
                self.assertEqual(params - want - problem, set(), "keywords of Problem.%s not rows" % fn.__name__)

    def test_cutlass_name_as_the_command_line(self):
        name = ("cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnn_align8_warpspecialized_"
                "cooperative_epi_tma")
        for fn, cmd in ((tilefit.solve, "solve"), (tilefit.check, "check"), (tilefit.layout, "layout")):
            rc, lines = cli(cmd, "--cutlass-name", name, "-m", "h100-sxm", "--json")
            self.assertEqual(rc, 0)
            self.assertEqual(fn("h100-sxm", cutlass_name=name), lines[0])
        self.assertEqual(tilefit.check(cutlass_name=name)["machine"], "h100-sxm")  # the name's architecture
        with self.assertRaises(tilefit.Error) as cm:
            tilefit.solve("h100-sxm", "fa3-fwd", cutlass_name=name)
        self.assertIn("solve: workset: cannot be combined with cutlass_name", cm.exception.message)
        with self.assertRaises(tilefit.Error) as cm:
            tilefit.solve(cutlass_name="cutlass3x_nope")
        self.assertEqual(cm.exception.field, "cutlass_name")

    def test_place_as_the_command_line(self):
        r = tilefit.solve("a100", "fa2-fwd", place={"Q": "rf"})
        self.assertEqual(r["placement"], {"Q": "rf"})
        rc, lines = cli("solve", "-m", "a100", "-w", "fa2-fwd", "--place", "Q=rf", "--json")
        self.assertEqual(rc, 0)
        self.assertEqual(r, lines[0])
        self.assertEqual(tilefit.solve("a100", "fa2-fwd", place={"Q": ["smem"]})["placement"], {"Q": "smem"})

    def test_any_arch_as_the_command_line(self):
        with self.assertRaises(tilefit.Error) as e:
            tilefit.solve("a100", "fa3-fwd", params={"d": 128})
        self.assertIn("any_arch", e.exception.message)
        r = tilefit.solve("a100", "fa3-fwd", params={"d": 128}, any_arch=True)
        rc, lines = cli("solve", "-m", "a100", "-w", "fa3-fwd", "-p", "d=128", "--any-arch", "--json")
        self.assertEqual(r, lines[0])


class Solve(unittest.TestCase):
    def test_fa4_on_b200_is_three_stages(self):
        r = tilefit.solve("b200", "fa4-fwd", **FA4)
        self.assertEqual(r["status"], "optimal")
        self.assertEqual(r["values"]["stages"], 3)

    def test_same_object_as_the_command_line(self):
        rc, lines = cli("solve", *FA4_CLI, "--json")
        self.assertEqual(rc, 0)
        self.assertEqual(tilefit.solve("b200", "fa4-fwd", **FA4), lines[0])

    def test_workset_objectives_and_a_domain(self):
        r = tilefit.solve("h100-sxm", "fa3-fwd", params={"d": 128}, domain={"B_c": [64, 112, 128]})
        rc, lines = cli("solve", "-m", "h100-sxm", "-w", "fa3-fwd", "-p", "d=128", "--domain", "B_c=64,112,128",
                        "--json")
        self.assertEqual(rc, 0)
        self.assertEqual(r, lines[0])

    def test_top_is_a_list_in_rank_order(self):
        r = tilefit.solve("b200", "fa4-fwd", params={"d": 128, "dv": 128}, top=3)
        rc, lines = cli("solve", "-m", "b200", "-w", "fa4-fwd", "-p", "d=128", "-p", "dv=128", "--top", "3", "--jsonl")
        self.assertEqual(rc, 0)
        self.assertEqual([a["rank"] for a in r], [1, 2, 3])
        self.assertEqual(r, lines)

    def test_glpk_gives_the_exact_answer_and_says_so(self):
        g = tilefit.solve("b200", "fa4-fwd", params={"d": 128, "dv": 128}, solver="glpk")
        e = tilefit.solve("b200", "fa4-fwd", params={"d": 128, "dv": 128})
        self.assertEqual(g["solver"]["name"], "glpk")
        self.assertEqual(e["solver"], {"name": "exact"})
        self.assertEqual([o["value"] for o in g["solver"]["objectives"]], [o["value"] for o in e["objectives"]])
        self.assertEqual((g["values"], g["objectives"]), (e["values"], e["objectives"]))
        with self.assertRaises(tilefit.Error) as bad:
            tilefit.solve("b200", "fa4-fwd", solver="glkp")
        self.assertIn("did you mean 'glpk'", str(bad.exception))

    def test_infeasible_is_an_answer(self):
        r = tilefit.solve("b200", "fa4-fwd", require="stages >= 40", **FA4)
        self.assertEqual(r["status"], "infeasible")
        self.assertIn("stages >= 40", r["reason"])
        rc, lines = cli("solve", *FA4_CLI, "--require", "stages >= 40", "--json")
        self.assertEqual(rc, 1)
        self.assertEqual(r, lines[0])

    def test_infeasible_top_is_one_infeasible_answer(self):
        r = tilefit.solve("b200", "fa4-fwd", require=["stages >= 40"], top=2, **FA4)
        self.assertEqual([a["status"] for a in r], ["infeasible"])


class Check(unittest.TestCase):
    FIX = {"B_r": 128, "B_c": 128, "q_stage": 2}

    def test_fits_and_does_not_fit_as_the_command_line(self):
        for stages, status, code in ((3, "fits", 0), (4, "does_not_fit", 1)):
            r = tilefit.check("b200", "fa4-fwd", params={"d": 128}, fix=dict(self.FIX, stages=stages))
            self.assertEqual(r["status"], status)
            rc, lines = cli("check", "-m", "b200", "-w", "fa4-fwd", "-p", "d=128", "--fix", "B_r=128", "--fix",
                            "B_c=128", "--fix", "q_stage=2", "--fix", "stages=%d" % stages, "--json")
            self.assertEqual(rc, code)
            self.assertEqual(r, lines[0])


class Errors(unittest.TestCase):
    def assertError(self, status, text, fn, *args, **kw):
        with self.assertRaises(tilefit.Error) as cm:
            fn(*args, **kw)
        self.assertEqual(cm.exception.status, status)
        self.assertIn(text, cm.exception.message)
        self.assertNotIn("\n", cm.exception.message)

    def test_unknown_machine_names_the_field(self):
        self.assertError(2, "solve: machine: unknown machine 'b2000'", tilefit.solve, "b2000", "fa4-fwd")

    def test_unknown_param(self):
        self.assertError(2, "no param 'dd'", tilefit.solve, "b200", "fa4-fwd", params={"dd": 1})

    def test_unknown_variable(self):
        self.assertError(2, "B_q", tilefit.solve, "b200", "fa4-fwd", fix={"B_q": 1})

    def test_type_and_layout_params_by_name(self):
        # as the command line's -p a_type=bf16: the same answer as the codes
        named = tilefit.solve("h100-sxm", "cutlass-sm90-gemm", params={"a_type": "bf16", "b_type": "bf16", "c_layout": "t"})
        coded = tilefit.solve("h100-sxm", "cutlass-sm90-gemm", params={"a_type": 1602, "b_type": 1602, "c_layout": 1})
        self.assertEqual(named, coded)
        rc, docs = cli("solve", "-m", "h100-sxm", "-w", "cutlass-sm90-gemm", "-p", "a_type=bf16", "-p", "b_type=bf16",
                       "-p", "c_layout=t", "--json")
        self.assertEqual((rc, docs[0]), (0, named))
        self.assertError(2, "params['a_type']: expected an integer or one of void, ", tilefit.solve, "h100-sxm",
                         "cutlass-sm90-gemm", params={"a_type": "bf17"})
        self.assertError(2, "params['M']: expected an integer, got 'big'", tilefit.solve, "h100-sxm",
                         "cutlass-sm90-gemm", params={"M": "big"})

    def test_bad_objective(self):
        self.assertError(2, "solve: objective[0]: ", tilefit.solve, "b200", "fa4-fwd", objective="most stages")

    def test_check_needs_every_variable_fixed(self):
        # the keyword, not the command line's --fix
        with self.assertRaises(tilefit.Error) as cm:
            tilefit.check("h100-sxm", "fa3-fwd", params={"d": 128}, fix={"B_r": 128})
        self.assertEqual(cm.exception.message, "check: variable 'B_c' is free; pass fix={'B_c': ...}")
        self.assertEqual((cm.exception.status, cm.exception.field), (2, "fix"))
        self.assertError(2, "variables 'B_r', 'B_c' are free; pass fix={'B_r': ..., 'B_c': ...}", tilefit.check,
                         "h100-sxm", "fa3-fwd")
        p = tilefit.Problem("h100-sxm", "fa3-fwd", params={"d": 128})
        self.assertError(2, "check: variables 'B_r', 'B_c' are free", p.check)

    def test_architecture_names_any_arch(self):
        with self.assertRaises(tilefit.Error) as cm:
            tilefit.solve("h100-sxm", "fa4-fwd")
        self.assertEqual(cm.exception.message,
                         "solve: fa4-fwd models sm_10x; h100-sxm is sm_90; pass any_arch=True to solve it anyway")
        self.assertEqual(cm.exception.field, "any_arch")
        self.assertNotIn("--", cm.exception.message)
        self.assertError(2, "pass any_arch=True", tilefit.Problem, "h100-sxm", "fa4-fwd")

    def test_place_in_python_terms(self):
        """place= errors name the keyword and the memory given, not the
        workset's file and a JSON path."""
        args = ("h100-sxm", "fa3-fwd")
        for kw, text in (({"P": "tmem"}, "solve: place['P']='tmem': P may be in smem, rf only"),
                         ({"PP": "smem"}, "solve: place['PP']='smem': workset 'fa3-fwd' has no buffer 'PP'"),
                         ({"P": 3}, "solve: place['P']: expected a memory or a list of memories, got 3 (an int)"),
                         ({"P": ["smem", 1]}, "solve: place['P'][1]: expected a string, got 1 (an int)"),
                         (["P"], "solve: place: expected a dict of BUFFER: memory or [memories], got ['P'] (a list)")):
            self.assertError(2, text, tilefit.solve, *args, params={"d": 128}, place=kw)
            with self.assertRaises(tilefit.Error) as cm:
                tilefit.solve(*args, params={"d": 128}, place=kw)
            self.assertNotIn(".json", cm.exception.message)
            self.assertNotIn("$.", cm.exception.message)
            self.assertEqual(cm.exception.field, "place")
        p = tilefit.Problem(*args, params={"d": 128})
        self.assertError(2, "solve: place['P']='tmem': P may be in smem, rf only", p.solve, place={"P": "tmem"})

    def test_floats_are_not_integers(self):
        """128.0 is refused where an integer belongs, naming the keyword;
        nan names params['d'] (it was "line 1, column 91: malformed JSON")."""
        b200 = ("b200", "fa4-fwd")
        self.assertError(2, "solve: params['d']: expected an integer, got nan (a float)", tilefit.solve, *b200,
                         params={"d": float("nan")})
        self.assertError(2, "solve: params['d']: expected an integer, got inf (a float)", tilefit.solve, *b200,
                         params={"d": float("inf")})
        self.assertError(2, "solve: params['d']: expected an integer, got 128.0 (a float)", tilefit.solve, *b200,
                         params={"d": 128.0})
        self.assertError(2, "check: fix['B_r']: expected an integer, got 128.0", tilefit.check, *b200, fix={"B_r": 128.0})
        self.assertError(2, "solve: domain['B_c'][0]: expected an integer, got 64.0", tilefit.solve, *b200,
                         domain={"B_c": [64.0]})
        self.assertError(2, "solve: top: expected an integer, got 2.0 (a float)", tilefit.solve, *b200, top=2.0)
        self.assertError(2, "solve: top: True is a bool, not an integer", tilefit.solve, *b200, top=True)
        self.assertError(2, "Problem: params['d']: expected an integer, got 128.0", tilefit.Problem, *b200,
                         params={"d": 128.0})
        self.assertError(2, "sweep: spec_or_problems['params']['d'][0]: expected an integer, got 64.0 (a float)",
                         tilefit.sweep, {"machines": ["b200"], "worksets": ["fa4-fwd"], "params": {"d": [64.0]}})
        self.assertError(2, "sweep: spec_or_problems[0]['params']['d']: expected an integer, got nan",
                         tilefit.sweep, [{"machine": "b200", "workset": "fa4-fwd", "params": {"d": float("nan")}}])
        self.assertError(2, "sweep: shard[0]: expected an integer, got 1.0", tilefit.sweep, {"machines": ["b200"]},
                         shard=(1.0, 2))
        self.assertError(2, "prune: configs[0]['BLOCK_M']: expected an integer, got 128.0", tilefit.prune,
                         [{"BLOCK_M": 128.0, "BLOCK_N": 128, "BLOCK_K": 64}], machine="a100", workset="triton-matmul")
        self.assertError(2, "solve: time_limit: expected a number of seconds > 0, got nan", tilefit.solve, *b200,
                         time_limit=float("nan"))
        self.assertError(2, "solve: objective: expected a string or a list of strings, got 3 (an int)",
                         tilefit.solve, *b200, objective=3)
        # a time limit is seconds: a float is what it takes
        self.assertEqual(tilefit.solve(*b200, time_limit=30.5, **FA4)["status"], "optimal")

    def test_fraction_is_refused(self):
        self.assertError(2, "solve: params['d']: expected an integer", tilefit.solve, "b200", "fa4-fwd",
                         params={"d": 64.5})

    def test_booleans_are_not_integers(self):
        # d=True solved as d=1 before, in params and in a configuration alike
        self.assertError(2, "solve: params['d']: True is a bool", tilefit.solve, "b200", "fa4-fwd",
                         params={"d": True, "dv": 128})
        self.assertError(2, "check: fix['B_r']: True", tilefit.check, "b200", "fa4-fwd", fix={"B_r": True})
        self.assertError(2, "solve: domain['B_c'][1]: False", tilefit.solve, "b200", "fa4-fwd",
                         domain={"B_c": [64, False]})
        self.assertError(2, "solve: top: True", tilefit.solve, "b200", "fa4-fwd", top=True)
        self.assertError(2, "Problem: params['d']: True", tilefit.Problem, "b200", "fa4-fwd", params={"d": True})
        self.assertError(2, "solve: explain: expected True or False", tilefit.solve, "b200", "fa4-fwd", explain=1)
        self.assertError(2, "BLOCK_M", tilefit.prune, [{"BLOCK_M": True, "BLOCK_N": 64, "BLOCK_K": 32,
                                                        "num_stages": 2, "num_warps": 4}],
                         machine="rtx4090", workset="triton-matmul")

    def test_nul_in_a_string(self):
        self.assertError(2, "solve: require[0]: ", tilefit.solve, "b200", "fa4-fwd", params={"d": 128, "dv": 128},
                         require="stages >= 1\u0000 && stages >= 99")

    def test_integers_that_are_not_int(self):
        class Index:  # numpy's integers have __index__ and are not int
            def __init__(self, v):
                self.v = v

            def __index__(self):
                return self.v

        class Small(int):  # an int subclass, as numpy's integers are numbers.Integral
            pass

        want = tilefit.solve("b200", "fa4-fwd", params={"d": 128, "dv": 128})
        got = tilefit.solve("b200", "fa4-fwd", params={"d": Index(128), "dv": Index(128)})
        self.assertEqual(got, want)
        self.assertEqual(tilefit.solve("b200", "fa4-fwd", params={"d": Small(128), "dv": Small(128)}), want)
        self.assertEqual(tilefit.Problem("b200", "fa4-fwd", params={"d": Small(128), "dv": 128}).solve(), want)
        with self.assertRaises(tilefit.Error) as cm:  # named, not a TypeError from deep inside json
            tilefit.solve("b200", "fa4-fwd", params={"d": object()})
        self.assertIn("solve: params['d']: expected an integer, got <object object", cm.exception.message)
        try:
            import numpy
        except ImportError:
            return
        got = tilefit.solve("b200", "fa4-fwd", params={"d": numpy.int64(128), "dv": numpy.int32(128)})
        self.assertEqual(got, want)

    def test_bad_requests(self):
        for request, text in (({"cmd": "slove"}, "unknown command 'slove'"),
                              ({"cmd": "solve", "problem": {"machine": "b200", "workset": "fa4-fwd"}, "topp": 2},
                               "topp"),
                              ({"cmd": "sweep"}, "exactly one of"),
                              ({"cmd": "solve", "problem": {"machine": "b200", "workset": "fa4-fwd"}, "top": 0},
                               "solve: top: "),
                              ({"cmd": "sweep", "problems": [{"workset": "fa4-fwd"}]}, "sweep: problems[0]")):
            self.assertError(2, text, tilefit._call, request)


class Sweep(unittest.TestCase):
    SPEC = {"machines": ["b200", "h100-sxm"], "worksets": ["fa3-fwd", "fa4-fwd"], "params": {"d": [64, 128]}}

    def cli_sweep(self, path, *args):
        rc, lines = cli("sweep", path, "--quiet", *args)
        self.assertEqual(rc, 0)
        return lines

    def test_spec_as_the_command_line_with_one_and_two_jobs(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "spec.json")
            with open(path, "w") as f:
                json.dump(self.SPEC, f)
            want = self.cli_sweep(path)
            self.assertEqual(len(want), 4)  # fa3-fwd on b200 and fa4-fwd on h100-sxm are skipped: architecture
            one = list(tilefit.sweep(self.SPEC, jobs=1))
            two = list(tilefit.sweep(self.SPEC, jobs=2))
            self.assertEqual(one, want)
            self.assertEqual(two, want)
            self.assertEqual(list(tilefit.sweep(path, jobs=2)), want)

    def test_problem_list(self):
        problems = [tilefit.problem("b200", "fa4-fwd", id="fa4", **FA4),
                    tilefit.problem("b200", "fa4-fwd", fix={"B_q": 1})]
        points = list(tilefit.sweep(problems))
        self.assertEqual([p["id"] for p in points], ["fa4", "line-2"])
        self.assertEqual(points[0]["values"]["stages"], 3)
        self.assertEqual(points[1]["status"], "error")  # a point that fails is a line, as in the command line
        # the list's error names the problem by its place in the list; the file's by its line
        self.assertEqual(points[1]["error"], "$.problems[1].fix.B_q: workset 'fa4-fwd' has no variable 'B_q' "
                         "(variables: B_r, B_c, q_stage, occupancy, stages)")
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "problems.jsonl")
            with open(path, "w") as f:
                f.writelines(json.dumps(p) + "\n" for p in problems)
            cli = self.cli_sweep(path)
            self.assertEqual(cli[1]["error"], path + ": line 2: $.fix.B_q: workset 'fa4-fwd' has no variable 'B_q' "
                             "(variables: B_r, B_c, q_stage, occupancy, stages)")
            for p in (points, cli):
                del p[1]["error"]
            self.assertEqual(points, cli)

    def test_a_bad_spec_raises(self):
        with self.assertRaises(tilefit.Error) as cm:
            next(tilefit.sweep({"machines": ["b200"], "worksets": ["fa4-fwd"], "params": {"zz": [1]}}))
        self.assertEqual(cm.exception.status, 2)
        self.assertEqual(cm.exception.message,
                         "sweep: spec_or_problems['params']['zz']: no workset of the sweep has a param 'zz'")

    def test_shards_as_the_command_line(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "spec.json")
            with open(path, "w") as f:
                json.dump(self.SPEC, f)
            for i in (1, 2, 3):
                self.assertEqual(list(tilefit.sweep(self.SPEC, shard=(i, 3))), self.cli_sweep(path, "--shard", "%d/3" % i))
        self.assertRaises(tilefit.Error, list, tilefit.sweep(self.SPEC, shard=(4, 3)))

    def test_streams_as_an_iterator(self):
        spec = {"machines": ["h100-sxm"], "worksets": ["fa3-fwd"], "params": {"d": [64, 96, 128, 192, 256],
                                                                              "dv": [64, 128, 256]}}
        points = tilefit.sweep(spec)
        self.assertIs(iter(points), points)  # an iterator, not a list made first
        first = next(points)
        self.assertEqual(first["index"], 0)
        rest = list(points)
        self.assertEqual([p["index"] for p in rest], list(range(1, 15)))
        self.assertEqual(list(points), [])  # spent

    def test_stopped_early(self):
        spec = {"machines": ["h100-sxm"], "worksets": ["fa3-fwd"],
                "params": {"d": list(range(16, 257, 16)), "dv": list(range(16, 257, 16))}}
        before = threading.active_count()
        points = tilefit.sweep(spec, memo_max=0)
        self.assertEqual(next(points)["index"], 0)
        points.close()  # the sweep's thread ends: its next write fails
        self.assertEqual(threading.active_count(), before)
        self.assertEqual(list(points), [])

    def test_dropped_or_interrupted(self):
        """An iterator dropped without close() (garbage-collected mid-sweep),
        and one left by an exception a signal handler raised mid-line: the
        sweep's thread ends and no descriptor stays open."""
        spec = {"machines": ["h100-sxm"], "worksets": ["fa3-fwd"],
                "params": {"d": list(range(16, 257, 16)), "dv": list(range(16, 257, 16))}}
        def now():
            return threading.active_count(), len(os.listdir("/proc/self/fd"))

        def settled(want):  # a collected iterator is not joined: its thread ends at the sweep's next write
            for _ in range(500):
                gc.collect()
                if now() == want:
                    break
                time.sleep(0.02)
            return now()
        before = now()
        points = tilefit.sweep(spec, memo_max=0, jobs=2)
        next(points)
        del points
        self.assertEqual(settled(before), before)

        def interrupt(*_):
            raise KeyboardInterrupt
        old = signal.signal(signal.SIGALRM, interrupt)
        try:
            with self.assertRaises(KeyboardInterrupt):
                signal.setitimer(signal.ITIMER_REAL, 0.02)
                for _ in tilefit.sweep(spec, memo_max=0):
                    time.sleep(0.01)  # slower than the sweep: the signal comes mid-iteration
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
        self.assertEqual(settled(before), before)


class Validate(unittest.TestCase):
    def test_the_shipped_cases_as_the_command_line(self):
        files = sorted(os.path.join("tests/data/validate", f) for f in os.listdir("tests/data/validate")
                       if f.endswith(".jsonl"))
        self.assertTrue(files)
        r = subprocess.run([BIN, "validate", "--jsonl", *files], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
        self.assertEqual(r.returncode, 0)
        got = tilefit.validate(*files)
        want = [json.loads(line) for line in r.stdout.splitlines()]
        self.assertEqual(len(got["cases"]), len(want))
        for row, line in zip(got["cases"], want):
            # the command line's texts as "expected_text" and "derived_text"; dicts as "expected" and "derived"
            self.assertEqual((row["expected_text"], row["derived_text"]), (line["expected"], line["derived"]))
            text = dict(row, expected=row["expected_text"], derived=row["derived_text"])
            del text["expected_text"], text["derived_text"]
            self.assertEqual(text, line)
            self.assertIsInstance(row["expected"], dict)
            self.assertEqual(row["expected"].keys(), row["derived"].keys())
        self.assertEqual(got["summary"], r.stderr.strip().splitlines()[-1])
        self.assertEqual(tilefit.validate(files)["cases"], got["cases"])  # a list works too

    def test_a_case_that_differs_counts_as_failed(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "cases.jsonl")
            with open(path, "w") as f:
                f.write(json.dumps(dict(tilefit.problem("b200", "fa4-fwd", id="wrong", **FA4), expect={"stages": 4}))
                        + "\n")
            r = tilefit.validate(path)
            self.assertEqual((r["passed"], r["failed"]), (0, 1))
            self.assertEqual(r["cases"][0]["result"], "differ")
            self.assertEqual(r["cases"][0]["derived"], {"stages": 3})
            self.assertEqual(r["cases"][0]["expected"], {"stages": 4})
            self.assertEqual(r["cases"][0]["derived_text"], "stages=3")
            self.assertEqual(r["summary"], "0 passed, 1 failed, 0 skipped")

    def test_a_missing_file_raises(self):
        with self.assertRaises(tilefit.Error) as cm:
            tilefit.validate("/nonexistent/cases.jsonl")
        self.assertEqual(cm.exception.status, 2)
        self.assertIn("/nonexistent/cases.jsonl", cm.exception.message)


class Prune(unittest.TestCase):
    CONFIGS = "tests/data/prune/triton-configs.jsonl"

    def test_the_command_lines_array(self):
        # buffer_offset 0: the autotune prune's estimate, num_stages A/B buffers
        got = tilefit.prune(self.CONFIGS, machine="rtx4090", workset="triton-matmul", params={"buffer_offset": 0})
        rc, docs = cli("prune", "-m", "rtx4090", "-w", "triton-matmul", "-p", "buffer_offset=0", "--json", self.CONFIGS)
        self.assertEqual(rc, 0)
        self.assertEqual(got, docs[0])
        self.assertEqual(sum(c["fits"] for c in got), 14)
        line5 = got[4]
        self.assertFalse(line5["fits"])
        self.assertEqual(line5["memories"]["smem"]["used"], 131072)
        self.assertEqual(line5["memories"]["smem"]["capacity"], 101376)

    def test_dicts_with_kwargs_and_a_map(self):
        configs = [{"kwargs": {"BM": 128, "BN": 128, "BK": 64}, "num_stages": 4, "num_warps": 8},
                   {"kwargs": {"BM": 64, "BN": 64, "BK": 32}, "num_stages": 3, "num_warps": 4}]
        got = tilefit.prune(configs, machine="rtx4090", workset="triton-matmul", params={"buffer_offset": 0},
                            map={"BM": "BLOCK_M", "BN": "BLOCK_N", "BK": "BLOCK_K"})
        self.assertEqual([c["fits"] for c in got], [False, True])
        self.assertEqual(got[1]["config"], configs[1])
        kept = [c["config"] for c in got if c["fits"]]
        again = tilefit.prune(kept, machine="rtx4090", workset="triton-matmul", params={"buffer_offset": 0},
                              map={"BM": "BLOCK_M", "BN": "BLOCK_N", "BK": "BLOCK_K"})
        self.assertTrue(all(c["fits"] for c in again))

    def test_kernel_names(self):
        name = "cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x128x64_1x1x1_0_tnn_align8_warpspecialized_cooperative_epi_tma"
        got = tilefit.prune([name])
        self.assertEqual(got[0]["workset"], "cutlass-sm90-gemm")
        self.assertEqual(got[0]["values"]["stages"], 6)

    def test_kernel_name_tile_below_the_cta_pair(self):
        # Tile M 1 on a CTA pair divided by zero in the epilogue size and killed the interpreter.
        for c in ("f16", "void"):
            name = "cutlass3x_sm100_tensorop_gemm_f16_f16_f32_%s_f16_1x128x64_1x1x1_0_tnn_align8_2sm" % c
            with self.assertRaises(tilefit.Error) as e:
                tilefit.prune([name])
            self.assertIn("CTA pair", str(e.exception))

    def test_errors(self):
        with self.assertRaises(tilefit.Error) as e:
            tilefit.prune([{"BLOCK_M": 64}], workset="triton-matmul")
        self.assertIn("prune: machine: ", str(e.exception))
        with self.assertRaises(tilefit.Error) as e:
            tilefit.prune([{"BLOCK_M": 6.5}], machine="rtx4090", workset="triton-matmul")
        self.assertIn("BLOCK_M", str(e.exception))


GEMM = dict(params={"epilogue_bytes": 33792}, fix={"tile_m": 128, "tile_n": 256, "tile_k": 64})
GEMM_CLI = ["-m", "h100-sxm", "-w", "cutlass-sm90-gemm", "-p", "epilogue_bytes=33792", "--fix", "tile_m=128",
            "--fix", "tile_n=256", "--fix", "tile_k=64"]


class Layout(unittest.TestCase):
    def test_the_command_lines_object(self):
        got = tilefit.layout("h100-sxm", "cutlass-sm90-gemm", **GEMM)
        rc, docs = cli("layout", *GEMM_CLI, "--json")
        self.assertEqual(rc, 0)
        self.assertEqual(got, docs[0])
        smem = got["layout"]["smem"]
        self.assertEqual(smem["total"], got["memories"]["smem"]["used"])
        self.assertEqual([b["name"] for b in smem["buffers"]][:2], ["mainloop", "epilogue"])
        self.assertEqual(smem["buffers"][1]["offset"], 196672)
        self.assertEqual(got["layout"]["rf"]["unit"], "registers/thread")

    def test_header_text(self):
        text = tilefit.layout("h100-sxm", "cutlass-sm90-gemm", emit="c", **GEMM)
        r = subprocess.run([BIN, "layout", *GEMM_CLI, "--emit", "c"], stdout=subprocess.PIPE, text=True)
        self.assertEqual(text, r.stdout)
        self.assertIn("static_assert(sizeof(struct tf_cutlass_sm90_gemm_smem) == 230464", text)

    def test_errors(self):
        with self.assertRaises(tilefit.Error) as e:
            tilefit.layout("h100-sxm", "cutlass-sm90-gemm", emit="rust")
        self.assertIn("layout: emit: unknown value 'rust'", str(e.exception))


class Emit(unittest.TestCase):
    def test_the_command_lines_object(self):
        # 33792 B is the TMA epilogue of a row-major C and D (c_layout 1, the name's "tnt")
        row = dict(params=dict(GEMM["params"], c_layout=1), fix=GEMM["fix"])
        got = tilefit.emit("h100-sxm", "cutlass-sm90-gemm", "cutlass", **row)
        rc, docs = cli("emit", "--for", "cutlass", *GEMM_CLI, "-p", "c_layout=1", "--json")
        self.assertEqual(rc, 0)
        self.assertEqual(got, docs[0])
        self.assertIn("cutlass3x_sm90_tensorop_gemm_f16_f16_f32_f16_f16_128x256x64_1x1x1_4_tnt_align8_"
                      "warpspecialized_cooperative_epi_tma", got["text"])
        self.assertEqual(got["answers"][0]["values"]["stages"], 4)

    def test_triton_top(self):
        got = tilefit.emit("h100-sxm", "triton-matmul", "triton", top=4)
        self.assertEqual(len(got["answers"]), 4)
        self.assertEqual(got["text"].count("triton.Config("), 4)
        kept = tilefit.prune([a["values"] for a in got["answers"]], machine="h100-sxm", workset="triton-matmul")
        self.assertTrue(all(c["fits"] for c in kept))

    def test_errors(self):
        with self.assertRaises(tilefit.Error) as e:
            tilefit.emit("b200", "fa4-fwd", "triton")
        self.assertIn("triton-matmul", str(e.exception))
        with self.assertRaises(tilefit.Error) as e:
            tilefit.emit("b200", "fa4-fwd", "rust")
        self.assertIn("emit: target: ", str(e.exception))


class Names(unittest.TestCase):
    def test_machines_and_worksets_as_listed(self):
        for fn, cmd, name in ((tilefit.machines, "machines", "b200"), (tilefit.worksets, "worksets", "fa4-fwd")):
            r = subprocess.run([BIN, cmd], stdout=subprocess.PIPE, text=True, check=True)
            self.assertEqual(fn(), [line.split()[0] for line in r.stdout.splitlines()])
            self.assertIn(name, fn())

    def test_version_is_the_command_lines(self):
        r = subprocess.run([BIN, "--version"], stdout=subprocess.PIPE, text=True, check=True)
        self.assertEqual("tilefit " + tilefit.version(), r.stdout.strip())


class Threads(unittest.TestCase):
    def test_concurrent_calls_give_the_sequential_answers(self):
        heads = [64, 96, 128, 192, 256]
        jobs = [(m, d) for m in ("b200", "h100-sxm", "a100") for d in heads]
        kernel = {"b200": "fa4-fwd", "h100-sxm": "fa3-fwd", "a100": "fa2-fwd"}  # each the architecture it models
        want = {j: tilefit.solve(j[0], kernel[j[0]], params={"d": j[1]}) for j in jobs}
        got = {}

        def work(i):
            for j in jobs[i::4]:
                got[j] = tilefit.solve(j[0], kernel[j[0]], params={"d": j[1]})

        self.assertEqual(on_threads(work), [])
        self.assertEqual(got, want)


class Handle(unittest.TestCase):
    FA3 = dict(params={"d": 128})

    def test_calls_answer_as_the_functions(self):
        p = tilefit.Problem(machine="h100-sxm", workset="fa3-fwd", **self.FA3)
        self.assertEqual(p.solve(), tilefit.solve("h100-sxm", "fa3-fwd", **self.FA3))
        self.assertEqual(p.solve(), p.solve())
        self.assertEqual(p.solve(place={"P": "smem"}), tilefit.solve("h100-sxm", "fa3-fwd", place={"P": "smem"},
                                                                     **self.FA3))
        self.assertEqual(p.solve(top=3, objective="max B_c"),
                         tilefit.solve("h100-sxm", "fa3-fwd", top=3, objective="max B_c", **self.FA3))
        fix = {"B_r": 128, "B_c": 128}
        self.assertEqual(p.check(fix=fix), tilefit.check("h100-sxm", "fa3-fwd", fix=fix, **self.FA3))
        self.assertEqual(p.layout(fix=fix), tilefit.layout("h100-sxm", "fa3-fwd", fix=fix, **self.FA3))
        self.assertEqual(p.layout(fix=fix, emit="c"), tilefit.layout("h100-sxm", "fa3-fwd", fix=fix, emit="c",
                                                                      **self.FA3))
        self.assertEqual(p.emit("fa"), tilefit.emit("h100-sxm", "fa3-fwd", "fa", **self.FA3))

    def test_a_calls_fields_add_to_the_problems(self):
        p = tilefit.Problem("b200", "fa4-fwd", params={"d": 128, "dv": 128}, fix={"B_r": 128, "B_c": 128})
        self.assertEqual(p.solve(fix={"q_stage": 2}, objective=["max stages"]), tilefit.solve("b200", "fa4-fwd", **FA4))
        self.assertEqual(p.solve(fix={"B_c": 64}), tilefit.solve("b200", "fa4-fwd", params={"d": 128, "dv": 128},
                                                                 fix={"B_r": 128, "B_c": 64}))
        with self.assertRaises(TypeError):  # params are the Problem's
            p.solve(params={"d": 64})

    def test_explain_is_the_command_lines(self):
        p = tilefit.Problem(machine="h100-sxm", workset="fa3-fwd", **self.FA3)
        rc, lines = cli("solve", "-m", "h100-sxm", "-w", "fa3-fwd", "-p", "d=128", "--explain", "--json")
        self.assertEqual(rc, 0)
        self.assertEqual(p.solve(explain=True), lines[0])
        self.assertEqual(tilefit.solve("h100-sxm", "fa3-fwd", explain=True, **self.FA3), lines[0])
        self.assertIn("levels", lines[0]["explain"])
        r = subprocess.run([BIN, "solve", "-m", "h100-sxm", "-w", "fa3-fwd", "-p", "d=128", "--explain", "--json",
                            "--top", "2"], stdout=subprocess.PIPE, text=True, check=True)
        self.assertEqual(p.solve(explain=True, top=2), json.loads(r.stdout))

    def test_closed(self):
        with tilefit.Problem("h100-sxm", "fa3-fwd", **self.FA3) as p:
            p.solve()
        with self.assertRaises(tilefit.Error) as cm:
            p.solve()
        self.assertIn("closed", cm.exception.message)

    def test_threads_on_one_problem(self):
        p = tilefit.Problem("h100-sxm", "fa3-fwd", **self.FA3)
        domains = [[v] for v in range(16, 257, 16)]
        want = [p.solve(domain={"B_c": d}) for d in domains]
        got = [None] * len(domains)

        def work(i):
            for k in range(i, len(domains), 4):
                got[k] = p.solve(domain={"B_c": domains[k]})

        self.assertEqual(on_threads(work), [])
        self.assertEqual(got, want)


class Plot(unittest.TestCase):
    def test_map_is_the_command_lines_svg(self):
        r = subprocess.run([BIN, "plot", "map", "-m", "h100-sxm", "-w", "fa3-fwd", "-p", "d=128", "--x", "B_r", "--y",
                            "B_c", "--color", "stages"], stdout=subprocess.PIPE, text=True, check=True)
        self.assertEqual(tilefit.plot_map("h100-sxm", "fa3-fwd", "B_r", "B_c", color="stages", params={"d": 128}),
                         r.stdout)
        p = tilefit.Problem("h100-sxm", "fa3-fwd", params={"d": 128})
        self.assertEqual(p.plot_map("B_r", "B_c", color="stages"), r.stdout)
        with self.assertRaises(tilefit.Error) as cm:
            p.plot_map("B_r", "B_q")
        self.assertIn("plot_map: y: 'B_q' is not a choose variable", cm.exception.message)

    def test_sweep_is_the_command_lines_svg(self):
        with tempfile.TemporaryDirectory() as d:
            spec, out = os.path.join(d, "spec.json"), os.path.join(d, "out.jsonl")
            with open(spec, "w") as f:
                json.dump({"machines": ["h100-sxm", "h200"], "worksets": ["fa3-fwd"], "params": {"d": [64, 128, 256]}},
                          f)
            subprocess.run([BIN, "sweep", spec, "--quiet", "-o", out], check=True)
            r = subprocess.run([BIN, "plot", "sweep", out, "--x", "d", "--y", "values.B_c", "--by", "machine"],
                               stdout=subprocess.PIPE, text=True, check=True)
            self.assertEqual(tilefit.plot_sweep(out, "d", "values.B_c", by="machine"), r.stdout)


class Describe(unittest.TestCase):
    def test_machine_is_the_command_lines(self):
        rc, docs = cli("machines", "h100-sxm", "--json")
        self.assertEqual(rc, 0)
        self.assertEqual(tilefit.machine("h100-sxm"), docs[0])
        self.assertIn("h100-sxm", tilefit.machines())  # names still

    def test_workset_in_full(self):
        w = tilefit.workset("fa3-fwd")
        answer = tilefit.solve("h100-sxm", "fa3-fwd", params={"d": 128})
        self.assertEqual(list(w["params"]), list(answer["params"]))
        self.assertEqual(w["params"]["d"], 128)
        self.assertEqual(w["params"]["dv"], "d")
        self.assertEqual(list(w["choose"]), list(answer["values"]))
        self.assertEqual(w["choose"]["B_r"], [64, 128, 192])
        self.assertEqual([b["name"] for b in w["buffers"]], [b["name"] for b in answer["buffers"]])
        self.assertEqual(w["buffers"][[b["name"] for b in w["buffers"]].index("P")]["place"], ["rf", "smem"])
        self.assertIn("fa3-fwd", tilefit.worksets())
        with self.assertRaises(tilefit.Error) as cm:
            tilefit.workset("fa9-fwd")
        self.assertIn("workset: name: unknown workset 'fa9-fwd'", cm.exception.message)


class Docstrings(unittest.TestCase):
    def test_examples(self):
        import doctest
        r = doctest.testmod(tilefit, extraglobs={"tilefit": tilefit}, optionflags=doctest.ELLIPSIS)
        self.assertGreater(r.attempted, 10)
        self.assertEqual(r.failed, 0)


class SourceTree(unittest.TestCase):
    def test_no_environment_needed(self):
        """The tree's module, from another directory, with no TILEFIT_* set:
        the tree's library and the tree's machines."""
        tree = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
        env = {k: v for k, v in os.environ.items() if not k.startswith("TILEFIT_")}
        env["PYTHONPATH"] = os.path.join(tree, "python")
        code = "import tilefit; print(tilefit.machine('h100-sxm')['file']); print(len(tilefit.machines()))"
        with tempfile.TemporaryDirectory() as d:
            r = subprocess.run([os.environ.get("PYTHON", "python3"), "-c", code], cwd=d, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        path, n = r.stdout.split()
        self.assertEqual(path, os.path.join(tree, "machines", "h100-sxm.json"))
        self.assertEqual(int(n), len([f for f in os.listdir(os.path.join(tree, "machines")) if f.endswith(".json")]))


if __name__ == "__main__":
    unittest.main()
