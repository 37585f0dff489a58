"""tilefit from Python: GPU kernel parameters (tile sizes, pipeline stages,
buffer placement) from a machine model and a kernel's working set.

A thin layer over the shared library's JSON entry point, tf_call_json
(solver/api_json.h), called through ctypes: every answer is the JSON the
command line writes, parsed into dicts, so ``solve(...)`` returns what
``tilefit solve --json`` prints and ``sweep(...)`` the lines ``tilefit
sweep`` writes.

    >>> import tilefit
    >>> r = tilefit.solve("b200", "fa4-fwd", params={"d": 128, "dv": 128},
    ...                   fix={"B_r": 128, "B_c": 128, "q_stage": 2},
    ...                   objective=["max stages"])
    >>> r["values"]["stages"]
    3

Bad input and failures raise tilefit.Error (.message, the one line the
command line prints; .status, its exit code: 2 bad input, 3 solver or
internal failure).  An infeasible problem or a configuration that does not
fit is an answer, not an error: its "status" says so.

The library is found, in order: $TILEFIT_LIB (a path to libtilefit.so),
beside the package as installed (PREFIX/lib, three levels up), the source
tree's build/, then the system's search path.  Shipped machines and
worksets are found as the command line finds them ($TILEFIT_DATA, then
the directory the library was installed for).

Threads: ctypes releases the GIL for the length of every call, and the C
side keeps no shared state between calls, so calls from several threads
run in parallel; sweep(jobs=N) runs N worker threads inside the library.
"""

import ctypes
import json
import operator
import os
import warnings

__all__ = ["Error", "solve", "check", "layout", "emit", "sweep", "validate", "prune", "problem", "machines", "worksets", "version"]


class Error(Exception):
    """A request tilefit refused or could not answer."""

    def __init__(self, message, status):
        super().__init__(message)
        self.message = message
        self.status = status


def _candidates():
    env = os.environ.get("TILEFIT_LIB")
    if env:
        return [env]
    here = os.path.dirname(os.path.abspath(__file__))
    return [
        os.path.join(here, "..", "..", "..", "libtilefit.so"),  # PREFIX/lib/python3/dist-packages/tilefit
        os.path.join(here, "..", "..", "build", "libtilefit.so"),  # the source tree: python/tilefit
        "libtilefit.so",
    ]


_lib = None


def _library():
    global _lib
    if _lib is None:
        tried = []
        for path in _candidates():
            if os.sep in path and not os.path.exists(path):
                tried.append(path + " (absent)")
                continue
            try:
                lib = ctypes.CDLL(path)  # CDLL, not PyDLL: calls release the GIL
            except OSError as e:
                tried.append("%s (%s)" % (path, e))
                continue
            lib.tf_call_json.restype = ctypes.c_void_p  # our pointer, to free
            lib.tf_call_json.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)]
            lib.tf_free.restype = None
            lib.tf_free.argtypes = [ctypes.c_void_p]
            _lib = lib
            break
        else:
            raise Error("cannot load libtilefit.so: tried " + "; ".join(tried), 3)
    return _lib


def _integer(value):
    """Integers that are not int (numpy's int64, ...) as int; anything else
    is not JSON.  bool is int to Python, but never a number to tilefit: it
    reaches the library as true and is refused there."""
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError("tilefit: %r (%s) is not JSON and not an integer" % (value, type(value).__name__)) from None


def _call(request):
    """One request to the library; returns (answer, status)."""
    lib = _library()
    status = ctypes.c_int(3)
    ptr = lib.tf_call_json(json.dumps(request, default=_integer).encode("utf-8"), ctypes.byref(status))
    try:
        answer = json.loads(ctypes.string_at(ptr).decode("utf-8"))
    finally:
        lib.tf_free(ptr)
    if status.value >= 2:
        raise Error(answer["error"], status.value)
    return answer, status.value


def _texts(value):
    """A string, or a list of strings, as a list."""
    return [value] if isinstance(value, str) else list(value)


def _places(value):
    """{"Q": "rf"} or {"Q": ["smem", "rf"]}: a pin or a narrowed list."""
    return {k: v if isinstance(v, str) else list(v) for k, v in value.items()}


# The request's fields after machine and workset, as model/request.h's
# TF_REQUEST_FIELDS table names them, and how a value is written: problem()
# writes every one it is given, and a test checks this table against the C
# one, so a field cannot be missing here.
_FIELDS = (
    ("params", dict),
    ("fix", dict),
    ("domain", lambda v: {k: list(x) for k, x in v.items()}),
    ("require", _texts),
    ("objective", _texts),
    ("place", _places),
    ("any_arch", bool),
    ("solver", str),
)


def problem(machine, workset, params=None, fix=None, domain=None, require=None, objective=None, place=None,
            any_arch=None, id=None, solver=None):
    """A problem as a dict: a line of a sweep's problem list or of a
    validation file.  machine and workset are shipped names or paths;
    place pins buffers to memories ({"P": "smem"}, or a list to narrow);
    any_arch solves a workset on an architecture it does not declare;
    solver="glpk" has a sweep solve the line with GLPK, certified."""
    given = dict(params=params, fix=fix, domain=domain, require=require, objective=objective, place=place,
                 any_arch=any_arch, solver=solver)
    p = {"machine": os.fspath(machine), "workset": os.fspath(workset)}
    if id is not None:
        p["id"] = id
    for key, write in _FIELDS:
        if given[key]:
            p[key] = write(given[key])
    return p


def _solve_opts(request, time_limit, presolve, solver=None):
    if solver is not None:
        request["solver"] = solver
    if time_limit is not None:
        request["time_limit"] = time_limit
    if presolve is not None:
        request["presolve"] = bool(presolve)
    return request


def solve(machine, workset, params=None, fix=None, domain=None, require=None, objective=None, top=None,
          time_limit=None, presolve=None, place=None, any_arch=None, solver=None):
    """The best assignment that fits, as the dict `tilefit solve --json`
    prints ("status": "optimal" or "infeasible" with its "reason").  With
    top=K, a list of the K best distinct assignments in rank order.
    solver="glpk" has GLPK solve the whole integer program, its answer
    certified against the exact optimum (an answer that fails raises
    tilefit.Error, status 3); presolve=False turns GLPK's presolver off."""
    request = {"cmd": "solve", "problem": problem(machine, workset, params, fix, domain, require, objective, place,
                                                  any_arch)}
    if top is not None:
        request["top"] = top
    return _call(_solve_opts(request, time_limit, presolve, solver))[0]


def check(machine, workset, params=None, fix=None, domain=None, require=None, place=None, any_arch=None,
          solver=None):
    """Whether one fully fixed configuration fits, buffer by buffer, as the
    dict `tilefit check --json` prints ("status": "fits" or "does_not_fit")."""
    request = {"cmd": "check", "problem": problem(machine, workset, params, fix, domain, require, place=place,
                                                  any_arch=any_arch, solver=solver)}
    return _call(request)[0]


def layout(machine, workset, params=None, fix=None, domain=None, require=None, objective=None, emit=None,
           time_limit=None, presolve=None):
    """Where each buffer sits, as the dict `tilefit layout --json` prints:
    the answer (solved when a variable is free, checked when every one is
    fixed) and "layout", per memory its "unit", "total" (the memory's used
    figure), "capacity" and "buffers" (name, offset, size, allocated,
    align, aligned; "shares" and "extra_offset" for an aliased buffer).
    With emit="c" or "cute-dsl", the text `tilefit layout --emit` writes:
    a C/C++ header or a CuTe DSL shared-storage struct."""
    request = {"cmd": "layout", "problem": problem(machine, workset, params, fix, domain, require, objective)}
    if emit is not None:
        request["emit"] = emit
    answer = _call(_solve_opts(request, time_limit, presolve))[0]
    return answer["text"] if emit is not None else answer


def emit(machine, workset, target, params=None, fix=None, domain=None, require=None, objective=None, top=None,
         time_limit=None, presolve=None):
    """What a kernel author pastes, as the dict `tilefit emit --for TARGET
    --json` prints: "for", "text" (the fragment: CUTLASS types and kernel
    name, CuTe DSL arguments, a triton.Config list, FlashAttention traits)
    and "answers" (the answers it was written for, as solve() returns
    them).  target is "cutlass", "cute-dsl", "triton" or "fa"; with top=K,
    the K best distinct tiles."""
    request = {"cmd": "emit", "for": target,
               "problem": problem(machine, workset, params, fix, domain, require, objective)}
    if top is not None:
        request["top"] = top
    return _call(_solve_opts(request, time_limit, presolve))[0]


def sweep(spec_or_problems, jobs=1, time_limit=None, presolve=None, solver=None):
    """Solves every point of a sweep; returns an iterator over one dict per
    point, in point order, each the line `tilefit sweep` writes.

    spec_or_problems is a sweep spec (a dict, see `tilefit sweep --help`),
    a path to a spec or to a .jsonl problem list, or a list of problems
    (dicts, e.g. from problem()).  jobs worker threads solve in the
    library.  The sweep runs when called; a point that fails is a dict
    with "status": "error", not an exception (with solver="glpk", an
    answer that fails certification is such a point)."""
    request = {"cmd": "sweep", "jobs": jobs}
    if isinstance(spec_or_problems, dict):
        request["spec"] = spec_or_problems
    elif isinstance(spec_or_problems, (str, os.PathLike)):
        request["file"] = os.fspath(spec_or_problems)
    else:
        request["problems"] = list(spec_or_problems)
    answer = _call(_solve_opts(request, time_limit, presolve, solver))[0]
    for w in answer["warnings"]:
        warnings.warn("tilefit: " + w, stacklevel=2)
    return iter(answer["points"])


def validate(*paths):
    """Runs the cases of one or more CASES.jsonl files, as `tilefit
    validate --json` does: a dict with "cases" (one row dict per case:
    "id", "kind", "result" -- "agree", "differ" or "tuned" --, "expected",
    "derived", "note", "answer") and the counts "passed", "failed",
    "skipped"."""
    if len(paths) == 1 and not isinstance(paths[0], (str, os.PathLike)):
        paths = tuple(paths[0])
    return _call({"cmd": "validate", "files": [os.fspath(p) for p in paths]})[0]


def prune(configs, machine=None, workset=None, params=None, map=None, time_limit=None):
    """Which configurations fit, as `tilefit prune --json`: a list with one
    dict per configuration ("where", "config", "fits", and check's fields:
    "memories" with used and capacity, "reason" when it does not fit).

    configs is a list of dicts (Triton's configs, e.g. {"BLOCK_M": 128,
    ..., "num_stages": 4}; a nested "kwargs" dict is read as flat), a list
    of CUTLASS library kernel names (each binds its own workset; machine
    then overrides the architecture's), or a path to such a list.  map
    renames keys onto the workset's variables ({"BM": "BLOCK_M"}); keys
    that name nothing in the workset are ignored."""
    request = {"cmd": "prune"}
    if isinstance(configs, (str, os.PathLike)):
        request["file"] = os.fspath(configs)
    else:
        request["configs"] = list(configs)
    for key, value in (("machine", machine), ("workset", workset), ("params", params), ("map", map),
                       ("time_limit", time_limit)):
        if value is not None:
            request[key] = value
    return _call(request)[0]


def machines():
    """The shipped machine names, sorted."""
    return _call({"cmd": "machines"})[0]


def worksets():
    """The shipped workset names, sorted."""
    return _call({"cmd": "worksets"})[0]


def version():
    """The library's version."""
    return _call({"cmd": "version"})[0]["version"]
