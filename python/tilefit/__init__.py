"""tilefit from Python: GPU kernel parameters (tile sizes, pipeline stages,
buffer placement) from a machine model and a kernel's working set.

A thin layer over the shared library's JSON entry points (tf_call_json and
the tf_json_handle_* functions, solver/api.h), called through ctypes:
every answer is the JSON the command line writes, parsed into dicts, so
``solve(...)`` returns what ``tilefit solve --json`` prints and ``sweep(...)``
yields the lines ``tilefit sweep`` writes.

    >>> import tilefit
    >>> r = tilefit.solve("b200", "fa4-fwd", params={"d": 128, "dv": 128},
    ...                   fix={"B_r": 128, "B_c": 128, "q_stage": 2},
    ...                   objective=["max stages"])
    >>> r["values"]["stages"]
    3

A Problem keeps its machine and workset loaded and its params bound, so
that repeated calls cost the search, not the load:

    >>> p = tilefit.Problem(machine="h100-sxm", workset="fa3-fwd", params={"d": 128})
    >>> p.solve()["values"]
    {'B_r': 128, 'B_c': 192, 'stages': 2}
    >>> p.solve(place={"P": "smem"})["placement"]
    {'Q': 'smem', 'P': 'smem'}

Bad input and failures raise tilefit.Error, whose message names the
keyword at fault (``check: variables 'B_r', 'B_c' are free; pass
fix={'B_r': ..., 'B_c': ...}``); .status is the command line's exit code
(2 bad input, 3 solver or internal failure), .field the keyword, .line the
line the command line would print.  An infeasible problem or a
configuration that does not fit is an answer, not an error: its "status"
says so.

Integers may be any numbers.Integral (numpy's too) but bool: True is
never a number to tilefit, and neither is a float (128.0, nan), which is
refused naming the keyword and the place in it (params['d'],
spec_or_problems['params']['d'][0]); time_limit is seconds and takes one.

The library is found, in order: $TILEFIT_LIB (a path to libtilefit.so),
beside the package as installed (PREFIX/lib, three levels up), the source
tree's build/, then the system's search path.  Shipped machines and
worksets are found beside the library ($TILEFIT_DATA first): a source
tree's library finds that tree's, an installed one PREFIX/share/tilefit.

Threads: ctypes releases the GIL for the length of every call, and the C
side keeps no shared state between calls, so calls from several threads
run in parallel, on one Problem too (a handle never changes once made);
Problem.close() on one thread waits for the calls in flight on others,
then frees it, and later calls raise.  sweep(jobs=N) runs N worker
threads inside the library.
"""

import collections.abc
import contextlib
import ctypes
import functools
import json
import math
import numbers
import operator
import os
import re
import signal
import threading
import warnings
import weakref

__all__ = ["Error", "Problem", "solve", "check", "layout", "emit", "plot_map", "plot_sweep", "sweep", "validate", "prune",
           "problem", "machine", "workset", "machines", "worksets", "version"]


class Error(Exception):
    """A request tilefit refused or could not answer: .message (one line,
    naming the keyword at fault), .status (2 bad input, 3 failure), .field
    (the keyword, or "" when the fault is in a file), .line (the line the
    command line prints after "tilefit: error: ")."""

    def __init__(self, message, status, field="", line=None):
        super().__init__(message)
        self.message = message
        self.status = status
        self.field = field
        self.line = message if line is None else line


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
_lib_lock = threading.Lock()


def _declare(lib):
    vp, cp, ip = ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)
    lib.tf_call_json.restype = vp  # our pointer, to free
    lib.tf_call_json.argtypes = [cp, ip]
    lib.tf_free.restype = None
    lib.tf_free.argtypes = [vp]
    lib.tf_json_handle_new.restype = vp
    lib.tf_json_handle_new.argtypes = [cp, ctypes.POINTER(vp), ip]
    lib.tf_json_handle_call.restype = vp
    lib.tf_json_handle_call.argtypes = [vp, cp, ip]
    lib.tf_json_handle_free.restype = None
    lib.tf_json_handle_free.argtypes = [vp]


def _library():
    global _lib
    with _lib_lock:
        if _lib is None:
            tried = []
            for path in _candidates():
                if os.sep in path and not os.path.exists(path):
                    tried.append(path + " (absent)")
                    continue
                try:
                    lib = ctypes.CDLL(path)  # CDLL, not PyDLL: calls release the GIL
                    _declare(lib)
                except (OSError, AttributeError) as e:
                    tried.append("%s (%s)" % (path, e))
                    continue
                _lib = lib
                break
            else:
                raise Error("cannot load libtilefit.so: tried " + "; ".join(tried), 3)
    return _lib


# ------------------------------------------------------------------ values
#
# Every keyword becomes its part of the JSON request here, checked in
# Python terms: a writer per keyword (the tables _FIELDS and _OPTIONS
# below) says what the keyword takes, and _plain walks the whole request
# once more before it is encoded, for what arrives as plain data (a sweep
# spec, a problem list, prune's configs).  A value refused names the
# keyword and the place in it, params['d'] or spec_or_problems['params']
# ['d'][0], never a JSON path or a file.


class _Bad(Exception):
    """A keyword's value refused before the library sees it: the public
    function turns it into tilefit.Error naming itself (_named)."""

    def __init__(self, keyword, text):
        super().__init__(keyword, text)
        self.keyword, self.text = keyword, text


def _named(cmd):
    def wrap(fn):
        @functools.wraps(fn)
        def call(*args, **kw):
            try:
                return fn(*args, **kw)
            except _Bad as e:
                raise Error("%s: %s: %s" % (cmd, e.keyword, e.text), 2, e.keyword.split("[")[0]) from None
        return call
    return wrap


def _kind(value):
    name = type(value).__name__
    return ("an " if name[:1] in "aeiou" else "a ") + name


def _integer(value, keyword):
    """An integer for the library: an int (or numbers.Integral, numpy's),
    never a bool (an int to Python, never a number to tilefit), a float
    (128.0 is not 128 here: Triton would compile a float constexpr), or a
    string."""
    if isinstance(value, bool):
        raise _Bad(keyword, "%r is a bool, not an integer" % value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if hasattr(type(value), "__index__") and not isinstance(value, (str, bytes)):
        return operator.index(value)  # an integer type not registered as Integral
    raise _Bad(keyword, "expected an integer, got %r (%s)" % (value, _kind(value)))


def _seconds(value, keyword):
    """A time limit: a real number of seconds > 0 (a float is fine here)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value) or value <= 0:
        raise _Bad(keyword, "expected a number of seconds > 0, got %r (%s)" % (value, _kind(value)))
    return value if isinstance(value, numbers.Integral) else float(value)


def _mapping(value, keyword, what):
    if not isinstance(value, collections.abc.Mapping):
        raise _Bad(keyword, "expected a dict of %s, got %r (%s)" % (what, value, _kind(value)))
    for k in value:
        if not isinstance(k, str):
            raise _Bad(keyword, "expected string keys, got %r (%s)" % (k, _kind(k)))
    return value


def _list(value, keyword, what):
    """A list, tuple, range or other iterable that is not a string."""
    if isinstance(value, (str, bytes, collections.abc.Mapping)) or not isinstance(value, collections.abc.Iterable):
        raise _Bad(keyword, "expected %s, got %r (%s)" % (what, value, _kind(value)))
    return list(value)


def _numbers(mapping, keyword, names=False):
    """{"d": 128}: each value an integer (or, for domain, a list of them);
    with names (params), a string too, which the library reads as the
    command line's -p does (a_type="bf16", c_layout="t") or refuses."""
    out = {}
    for k, v in _mapping(mapping, keyword, "NAME: integer").items():
        where = "%s[%r]" % (keyword, k)
        if names and isinstance(v, str):
            out[k] = v
        elif isinstance(v, collections.abc.Iterable) and not isinstance(v, (str, bytes, collections.abc.Mapping)):
            out[k] = [_integer(x, "%s[%d]" % (where, i)) for i, x in enumerate(v)]
        else:
            out[k] = _integer(v, where)
    return out


def _text(value, keyword):
    if not isinstance(value, str):
        raise _Bad(keyword, "expected a string, got %r (%s)" % (value, _kind(value)))
    return value


def _texts(value, keyword):
    """A string, or a list of strings, as a list."""
    if isinstance(value, str):
        return [value]
    return [_text(v, "%s[%d]" % (keyword, i))
            for i, v in enumerate(_list(value, keyword, "a string or a list of strings"))]


def _places(value, keyword):
    """{"Q": "rf"} or {"Q": ["smem", "rf"]}: a pin or a narrowed list."""
    out = {}
    for k, v in _mapping(value, keyword, "BUFFER: memory or [memories]").items():
        where = "%s[%r]" % (keyword, k)
        out[k] = v if isinstance(v, str) else \
            [_text(m, "%s[%d]" % (where, i)) for i, m in enumerate(_list(v, where, "a memory or a list of memories"))]
    return out


def _flag(value, keyword):
    if not isinstance(value, bool):
        raise _Bad(keyword, "expected True or False, got %r" % (value,))
    return value


def _string(value, keyword):
    if not isinstance(value, (str, os.PathLike)):
        raise _Bad(keyword, "expected a string, got %r (%s)" % (value, _kind(value)))
    return os.fspath(value)


def _renames(value, keyword):
    """prune's map: {"BM": "BLOCK_M"}."""
    return {k: _text(v, "%s[%r]" % (keyword, k)) for k, v in _mapping(value, keyword, "KEY: VARIABLE").items()}


def _keys(value, keyword):
    """emit's key: {"BLOCK_M": "BM"} renames a variable, {"GROUP": 8} adds
    a constant key."""
    out = {}
    for k, v in _mapping(value, keyword, "VAR: KEY or NEWKEY: integer").items():
        out[k] = v if isinstance(v, str) else _integer(v, "%s[%r]" % (keyword, k))
    return out


# Where each request member comes from, in the caller's terms.
_ROOTS = {"spec": "spec_or_problems", "problems": "spec_or_problems", "file": "spec_or_problems", "for": "target"}


def _plain(value, where):
    """The request as JSON: every number an int but time limits (a float
    is never an integer to tilefit, nan and inf are not JSON), every key a
    string, every other value a string, bool, None, list or dict."""
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, float):
        if where.endswith("time_limit") or where.endswith("['time_limit']"):
            return _seconds(value, where)
        raise _Bad(where, "expected an integer, got %r (a float)" % value)
    if isinstance(value, (numbers.Integral, os.PathLike)) or hasattr(type(value), "__index__"):
        return os.fspath(value) if isinstance(value, os.PathLike) else _integer(value, where)
    if isinstance(value, collections.abc.Mapping):
        return {_text(k, where): _plain(v, "%s[%r]" % (where, k)) for k, v in value.items()}
    if isinstance(value, (list, tuple, range)):
        return [_plain(v, "%s[%d]" % (where, i)) for i, v in enumerate(value)]
    raise _Bad(where, "%r (%s) is not a value tilefit takes" % (value, _kind(value)))


def _checked(request):
    """_plain over a request, each member named as its keyword: a problem's
    members by their own names (params, place, ...), spec_or_problems,
    configs, target."""
    out = {}
    for key, value in request.items():
        if key == "problem" and isinstance(value, collections.abc.Mapping):
            out[key] = {k: _plain(v, k) for k, v in value.items()}
        else:
            out[key] = _plain(value, _ROOTS.get(key, key))
    return out


# The request's fields after machine and workset, as model/input/request.h's
# TF_REQUEST_FIELDS table names them, and how a value is written: every
# function below takes each as a keyword of the same name, and a test
# checks this table against the C one, so a field cannot be missing here.
_FIELDS = (
    ("params", lambda value, keyword: _numbers(value, keyword, names=True)),
    ("fix", _numbers),
    ("domain", _numbers),
    ("require", _texts),
    ("objective", _texts),
    ("place", _places),
    ("any_arch", _flag),
    ("solver", _string),
)
_WRITE = dict(_FIELDS)

# The options of the commands (a request's members besides "problem"):
# the library's command-option table (solver/command_options.h, the
# "options" request), each written as the library reads its kind.
_WRITERS = {"int": _integer, "seconds": _seconds, "flag": _flag, "noflag": _flag, "word": _string, "text": _string,
            "pairs": _keys, "operand": _string}
_OPTIONS = {}


def _option_writers():
    """Keyword -> writer, from the library's table (read once)."""
    if not _OPTIONS:
        rows = _call({"cmd": "options"})[0]
        _OPTIONS.update({r["key"]: _WRITERS[r["kind"]] for r in rows if "json" in r["fronts"] and r["kind"] in _WRITERS})
    return _OPTIONS


def _fields(given):
    """The problem members that were given (None: not given)."""
    out = {}
    for key, write in _FIELDS:
        value = given.get(key)
        if value is not None and (value is not False or key != "any_arch"):
            out[key] = write(value, key)
    return out


@_named("problem")
def problem(machine, workset, params=None, fix=None, domain=None, require=None, objective=None, place=None,
            any_arch=None, solver=None, id=None):
    """A problem as a dict: a line of a sweep's problem list or of a
    validation file.  machine and workset are shipped names or paths;
    place pins buffers to memories ({"P": "smem"}, or a list to narrow);
    any_arch solves a workset on an architecture it does not declare;
    solver="glpk" has a sweep solve the line with GLPK, certified.

    >>> tilefit.problem("h100-sxm", "fa3-fwd", params={"d": 128}, place={"P": "smem"})
    {'machine': 'h100-sxm', 'workset': 'fa3-fwd', 'params': {'d': 128}, 'place': {'P': 'smem'}}
    """
    p = {k: os.fspath(v) for k, v in (("machine", machine), ("workset", workset)) if v is not None}
    if id is not None:
        p["id"] = id
    p.update(_fields(dict(params=params, fix=fix, domain=domain, require=require, objective=objective, place=place,
                          any_arch=any_arch, solver=solver)))
    return p


_problem = problem.__wrapped__


def _request(cmd, problem_, options):
    request = {"cmd": cmd}
    if problem_ is not None:
        request["problem"] = problem_
    for key, value in options.items():
        if value is not None:
            request[key] = _option_writers()[key](value, key)
    return request


# ------------------------------------------------------------------ errors

def _keyword(path, field, renames):
    """"$.problem.params.d" as params['d']; "$.top" as top."""
    if path.startswith("--"):
        return renames.get(field, field)
    rest = path[2:]
    if rest.startswith("problem."):
        rest = rest[len("problem."):]
    rest = rest[len(field):]
    name = renames.get(field, field)
    while rest:
        if rest.startswith("."):
            key = rest[1:].split(".")[0].split("[")[0]
            name += "[%r]" % key
            rest = rest[1 + len(key):]
        elif rest.startswith("["):
            end = rest.find("]")
            if end < 0:
                break
            name += rest[:end + 1]
            rest = rest[end + 1:]
        else:
            break
    return name


def _at(request, path):
    """The value at a JSON path ("$.problem.place.P") of the request, or
    None."""
    value, rest = request, path[1:] if path.startswith("$") else None
    while rest and value is not None:
        if rest.startswith("."):
            key = re.match(r"\.([^.\[]*)", rest).group(1)
            value = value.get(key) if isinstance(value, dict) else None
            rest = rest[1 + len(key):]
        elif rest.startswith("[") and "]" in rest:
            i = rest[1:rest.index("]")]
            value = value[int(i)] if isinstance(value, list) and i.isdigit() and int(i) < len(value) else None
            rest = rest[rest.index("]") + 1:]
        else:
            return None
    return value if rest == "" else None


def _error(cmd, answer, status, renames=None, request=None):
    """The library's error answer as tilefit.Error naming the keyword (and
    for place= the memory given, which the message does not repeat:
    place['P']='tmem')."""
    line = answer.get("error", "unknown error")
    field = answer.get("field") or ""
    if not field:
        return Error("%s: %s" % (cmd, line), status, "", line)
    message = answer.get("message", line)
    name = (renames or {}).get(field, field)
    if field == "fix" and answer.get("free"):
        free = answer["free"]
        what = "variable %r is" % free[0] if len(free) == 1 else \
            "variables %s are" % ", ".join(repr(v) for v in free)
        text = "%s: %s free; pass %s={%s}" % (cmd, what, name, ", ".join("%r: ..." % v for v in free))
    elif field == "any_arch":
        text = "%s: %s; pass %s=True to solve it anyway" % (cmd, message, name)
    else:
        where = _keyword(answer.get("path", ""), field, renames or {})
        value = _at(request, answer.get("path", "")) if request is not None else None
        if field == "place" and isinstance(value, str) and value not in message:
            where += "=%r" % value
        text = "%s: %s: %s" % (cmd, where, message)
    return Error(text, status, name, line)


def _answer(ptr, status):
    lib = _library()
    try:
        text = ctypes.string_at(ptr).decode("utf-8")
    finally:
        lib.tf_free(ptr)
    return json.loads(text), status.value


def _encode(request):
    """The request as UTF-8 JSON, checked (_checked); raises _Bad."""
    return json.dumps(_checked(request), allow_nan=False).encode("utf-8")


def _call_raw(request):
    """One request (a dict, or the bytes _encode made of one) to the
    library; returns (answer, status), errors too."""
    lib = _library()
    status = ctypes.c_int(3)
    text = request if isinstance(request, bytes) else _encode(request)
    return _answer(lib.tf_call_json(text, ctypes.byref(status)), status)


def _call(request, renames=None, name=None):
    """One request to the library; returns (answer, status)."""
    answer, status = _call_raw(request)
    if status >= 2:
        cmd = name or (request.get("cmd", "?") if isinstance(request, dict) else "?")
        raise _error(cmd, answer, status, renames, request)
    return answer, status


# ----------------------------------------------------------------- problems

@_named("solve")
def solve(machine=None, workset=None, params=None, fix=None, domain=None, require=None, objective=None, place=None,
          any_arch=None, solver=None, top=None, top_points=None, explain=None, time_limit=None, presolve=None,
          cutlass_name=None):
    """The best assignment that fits, as the dict `tilefit solve --json`
    prints ("status": "optimal" or "infeasible" with its "reason").  With
    top=K, a list of the K best distinct assignments in rank order
    (top_points=True: every point, not one per tile).  explain=True adds
    "explain" as --explain does: binding constraints, each objective
    level's next-better candidate and why it fails, the placement's
    alternatives.  solver="glpk" has GLPK solve the whole integer program,
    its answer certified against the exact optimum; presolve=False turns
    GLPK's presolver off; time_limit is in seconds.  cutlass_name=NAME
    (a CUTLASS library kernel name) names the workset, its params and
    tile, and the machine unless machine is given, as --cutlass-name.

    >>> r = tilefit.solve("h100-sxm", "fa3-fwd", params={"d": 128}, explain=True)
    >>> r["explain"]["levels"][0]["next_better"]["violation"]
    'smem needs 245760 B of 232448, 13312 over'
    """
    p = _problem(machine, workset, params, fix, domain, require, objective, place, any_arch, solver)
    return _call(_request("solve", p, dict(top=top, top_points=top_points, explain=explain, time_limit=time_limit,
                                           presolve=presolve, cutlass_name=cutlass_name)))[0]


@_named("check")
def check(machine=None, workset=None, params=None, fix=None, domain=None, require=None, place=None, any_arch=None,
          solver=None, time_limit=None, presolve=None, cutlass_name=None):
    """Whether one fully fixed configuration fits, buffer by buffer, as the
    dict `tilefit check --json` prints ("status": "fits" or "does_not_fit").

    >>> tilefit.check("h100-sxm", "fa3-fwd", params={"d": 128}, fix={"B_r": 128})
    Traceback (most recent call last):
    tilefit.Error: check: variable 'B_c' is free; pass fix={'B_c': ...}
    """
    p = _problem(machine, workset, params, fix, domain, require, None, place, any_arch, solver)
    return _call(_request("check", p, dict(time_limit=time_limit, presolve=presolve, cutlass_name=cutlass_name)))[0]


def _layout_text(answer, emit_):
    return answer["text"] if emit_ is not None else answer


@_named("layout")
def layout(machine=None, workset=None, params=None, fix=None, domain=None, require=None, objective=None, place=None,
           any_arch=None, solver=None, emit=None, time_limit=None, presolve=None, cutlass_name=None):
    """Where each buffer sits, as the dict `tilefit layout --json` prints:
    the answer (solved when a variable is free, checked when every one is
    fixed) and "layout", per memory its "unit", "total" (the memory's used
    figure), "capacity" and "buffers" (name, offset, size, allocated,
    align, aligned; "shares" and "extra_offset" for an aliased buffer).
    With emit="c" or "cute-dsl", the text `tilefit layout --emit` writes:
    a C/C++ header or a CuTe DSL shared-storage struct."""
    p = _problem(machine, workset, params, fix, domain, require, objective, place, any_arch, solver)
    answer = _call(_request("layout", p, dict(emit=emit, time_limit=time_limit, presolve=presolve,
                                              cutlass_name=cutlass_name)))[0]
    return _layout_text(answer, emit)


@_named("emit")
def emit(machine=None, workset=None, target=None, params=None, fix=None, domain=None, require=None, objective=None,
         place=None, any_arch=None, solver=None, top=None, time_limit=None, presolve=None, cutlass_name=None, key=None):
    """What a kernel author pastes, as the dict `tilefit emit --for TARGET
    --json` prints: "for", "text" (the fragment: CUTLASS types and kernel
    name, CuTe DSL arguments, a triton.Config list, FlashAttention traits)
    and "answers" (the answers it was written for, as solve() returns
    them).  target is "cutlass", "cute-dsl", "triton" or "fa"; with top=K,
    the K best distinct tiles.  key (target "triton", as --key) names your
    kernel's config keys: {"BLOCK_M": "BM"} writes the variable BLOCK_M
    as 'BM', {"GROUP": 8} adds a constant key; without it, the tutorial
    kernel's (BLOCK_SIZE_M, ..., GROUP_SIZE_M 8)."""
    p = _problem(machine, workset, params, fix, domain, require, objective, place, any_arch, solver)
    return _call(_request("emit", p, {"for": target, "top": top, "time_limit": time_limit, "presolve": presolve,
                                      "cutlass_name": cutlass_name, "key": key}), {"for": "target"})[0]


@_named("plot_map")
def plot_map(machine=None, workset=None, x=None, y=None, color=None, scale=None, params=None, fix=None, domain=None,
             require=None, objective=None, place=None, any_arch=None, solver=None, time_limit=None, presolve=None,
             cutlass_name=None):
    """The feasible region of two choose variables, as `tilefit plot map
    --x X --y Y` draws it: the SVG text.  Every cell (x, y) is solved with
    both fixed; a feasible cell is coloured by color (an expression; the
    first count by default) on the scale ("auto", "linear", "log",
    "rank"), an infeasible one by what rules it out.

    >>> svg = tilefit.plot_map("h100-sxm", "fa3-fwd", "B_r", "B_c", params={"d": 128})
    >>> svg.startswith("<svg") or svg.startswith("<?xml")
    True
    """
    p = _problem(machine, workset, params, fix, domain, require, objective, place, any_arch, solver)
    return _call(_request("plot", p, dict(kind="map", x=x, y=y, color=color, scale=scale, time_limit=time_limit,
                                          presolve=presolve, cutlass_name=cutlass_name)), name="plot_map")[0]["text"]


@_named("plot_sweep")
def plot_sweep(file, x, y, by=None, scale=None, x_scale=None):
    """A sweep's output (a JSON Lines file) as lines, as `tilefit plot
    sweep FILE --x X --y Y --by BY --scale S --x-scale S` draws them: the
    SVG text (scale, the y axis's, and x_scale: "auto", "linear", "log",
    "rank")."""
    return _call(_request("plot", None, dict(kind="sweep", file=file, x=x, y=y, by=by, scale=scale, x_scale=x_scale)),
                 name="plot_sweep")[0]["text"]


class _Handle:
    """A library handle shared by threads: use() counts a call in flight
    (refused once closed), close() marks it closed, waits until no call is
    in flight and frees it, once.  The closed check and the call are one
    step under the lock, so a call never runs on a freed handle."""

    def __init__(self, lib, handle):
        self._lib, self._handle = lib, handle
        self._cond = threading.Condition()
        self._calls = 0
        self._closed = False

    @contextlib.contextmanager
    def use(self, name):
        with self._cond:
            if self._closed:
                raise Error("%s: the Problem is closed" % name, 2)
            self._calls += 1
        try:
            yield self._handle
        finally:
            with self._cond:
                self._calls -= 1
                if not self._calls:
                    self._cond.notify_all()

    def close(self):
        with self._cond:
            if self._closed:
                return
            self._closed = True
            while self._calls:
                self._cond.wait()
        self._lib.tf_json_handle_free(self._handle)


class Problem:
    """One problem's machine and workset, loaded once and bound to its
    params, for many calls: p.solve(), p.check(), p.layout(), p.emit()
    take what a call may change (fix, domain, require, objective, place,
    solver and the command's options) and cost the search, not the load.
    What the call gives adds to what the Problem was made with: fix,
    domain and place by key (the call's win), require appended, objective
    and solver replaced.  Calls on one Problem may run on several threads
    at once.  close() (or a with block) frees it now; otherwise it is
    freed with the object.

    >>> p = tilefit.Problem(machine="h100-sxm", workset="fa3-fwd", params={"d": 128})
    >>> p.check(fix={"B_r": 128, "B_c": 128})["status"]
    'fits'
    >>> p.solve(top=2)[1]["values"]
    {'B_r': 192, 'B_c': 128, 'stages': 2}
    """

    @_named("Problem")
    def __init__(self, machine, workset, params=None, any_arch=None, fix=None, domain=None, require=None,
                 objective=None, place=None, solver=None):
        self.problem = _problem(machine, workset, params, fix, domain, require, objective, place, any_arch, solver)
        lib = _library()
        out, status = ctypes.c_void_p(), ctypes.c_int(3)
        handle = lib.tf_json_handle_new(_encode(self.problem), ctypes.byref(out), ctypes.byref(status))
        answer, status = _answer(out, status)
        if not handle:
            raise _error("Problem", answer, status)
        self._handle = _Handle(lib, handle)
        # freed with the object, through the same lock as close(); not at
        # interpreter exit, where a daemon thread may still be in a call
        self._free = weakref.finalize(self, self._handle.close)
        self._free.atexit = False
        self.machine, self.workset = answer["machine"], answer["workset"]

    def __repr__(self):
        return "tilefit.Problem(machine=%r, workset=%r, params=%r)" % (self.machine, self.workset,
                                                                      self.problem.get("params", {}))

    def close(self):
        """Frees the loaded machine and workset once the calls in flight on
        other threads have returned (it waits for them); later calls raise."""
        self._free()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _call(self, cmd, given, options, renames=None, name=None):
        request = _request(cmd, _fields(given), options)
        text = _encode(request)
        with self._handle.use(name or cmd) as handle:
            lib = _library()
            status = ctypes.c_int(3)
            answer, status = _answer(lib.tf_json_handle_call(handle, text, ctypes.byref(status)), status)
        if status >= 2:
            raise _error(name or cmd, answer, status, renames, request)
        return answer

    @_named("solve")
    def solve(self, fix=None, domain=None, require=None, objective=None, place=None, solver=None, top=None,
              top_points=None, explain=None, time_limit=None, presolve=None):
        """tilefit.solve() on this problem (see there)."""
        return self._call("solve", dict(fix=fix, domain=domain, require=require, objective=objective, place=place,
                                        solver=solver),
                          dict(top=top, top_points=top_points, explain=explain, time_limit=time_limit,
                               presolve=presolve))

    @_named("check")
    def check(self, fix=None, domain=None, require=None, place=None, solver=None, time_limit=None, presolve=None):
        """tilefit.check() on this problem (see there)."""
        return self._call("check", dict(fix=fix, domain=domain, require=require, place=place, solver=solver),
                          dict(time_limit=time_limit, presolve=presolve))

    @_named("layout")
    def layout(self, fix=None, domain=None, require=None, objective=None, place=None, solver=None, emit=None,
               time_limit=None, presolve=None):
        """tilefit.layout() on this problem (see there)."""
        answer = self._call("layout", dict(fix=fix, domain=domain, require=require, objective=objective,
                                           place=place, solver=solver),
                            dict(emit=emit, time_limit=time_limit, presolve=presolve))
        return _layout_text(answer, emit)

    @_named("plot_map")
    def plot_map(self, x, y, color=None, scale=None, fix=None, domain=None, require=None, objective=None, place=None,
                 solver=None, time_limit=None, presolve=None):
        """tilefit.plot_map() on this problem (see there)."""
        return self._call("plot", dict(fix=fix, domain=domain, require=require, objective=objective, place=place,
                                       solver=solver),
                          dict(kind="map", x=x, y=y, color=color, scale=scale, time_limit=time_limit,
                               presolve=presolve),
                          name="plot_map")["text"]

    @_named("emit")
    def emit(self, target, fix=None, domain=None, require=None, objective=None, place=None, solver=None, top=None,
             time_limit=None, presolve=None, key=None):
        """tilefit.emit() on this problem (see there)."""
        return self._call("emit", dict(fix=fix, domain=domain, require=require, objective=objective, place=place,
                                       solver=solver),
                          {"for": target, "top": top, "time_limit": time_limit, "presolve": presolve, "key": key},
                          {"for": "target"})


# -------------------------------------------------------------------- sweep

def _sweep_thread(text, write_fd, result):
    """The sweep's call, on its own thread: the lines go to the pipe.
    SIGPIPE is blocked on this thread (and the library's workers, which
    inherit its mask), so that a reader that stops early makes the next
    write fail with EPIPE, which ends the sweep, whatever the process's
    SIGPIPE disposition; a SIGPIPE left pending dies with the thread."""
    try:
        if hasattr(signal, "pthread_sigmask"):
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGPIPE})
        result["answer"] = _call_raw(text)
    except BaseException as e:  # handed to the reader
        result["exception"] = e
    finally:
        os.close(write_fd)


class _Sweep:
    """The points of a running sweep, read from a pipe the library writes
    while it solves; see sweep().  Closing it (close(), the end of a with
    block, or the iterator being collected) closes the read end: the
    library's next write fails and the sweep's thread ends and closes the
    write end, so nothing is left open."""

    def __init__(self, request, stacklevel):
        _library()
        self._done = True  # until the thread runs: nothing for __del__ to close
        read_fd, write_fd = os.pipe()
        request["fd"] = write_fd
        try:
            text = _encode(request)  # a value refused raises here, at the call
            self._file = os.fdopen(read_fd, "rb", buffering=1 << 16)
        except BaseException:
            os.close(read_fd)
            os.close(write_fd)
            raise
        self._lines = iter(self._file)
        self._result = {}
        self._stacklevel = stacklevel
        self._thread = threading.Thread(target=_sweep_thread, args=(text, write_fd, self._result), daemon=True)
        try:
            self._thread.start()
        except BaseException:
            self._file.close()
            os.close(write_fd)
            raise
        self._done = False

    def __iter__(self):
        return self

    def __next__(self):
        if not self._done:
            for line in self._lines:
                return json.loads(line)
            self._finish()
        raise StopIteration

    def _finish(self):
        self._done = True
        self._thread.join()
        self._file.close()
        if "exception" in self._result:
            raise self._result["exception"]
        answer, status = self._result["answer"]
        if status >= 2:
            raise _error("sweep", answer, status, {"spec": "spec_or_problems", "file": "spec_or_problems",
                                                   "problems": "spec_or_problems"})
        for w in answer.get("warnings", []):
            warnings.warn("tilefit: " + w, stacklevel=self._stacklevel)

    def close(self):
        """Stops reading: the sweep stops at its next write (its thread is
        joined before this returns)."""
        if not self._done:
            self._done = True
            self._file.close()  # the library's next write fails (EPIPE) and the sweep ends
            self._thread.join()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        # not joined here: a collector must not wait for the library; the
        # thread closes the write end when the sweep notices
        if not getattr(self, "_done", True):
            self._done = True
            self._file.close()


@_named("sweep")
def sweep(spec_or_problems, jobs=1, memo_max=None, shard=None, time_limit=None, presolve=None, solver=None):
    """Solves every point of a sweep, yielding one dict per point as it is
    solved, in point order, each the line `tilefit sweep` writes; nothing
    is kept but the line being read (the library writes JSON Lines into a
    pipe that this iterator reads; it works as a with block too).

    spec_or_problems is a sweep spec (a dict, see `tilefit sweep --help`),
    a path to a spec or to a .jsonl problem list, or a list of problems
    (dicts, e.g. from problem()).  jobs worker threads solve in the
    library; memo_max bounds the answers kept for reuse; shard=(I, N)
    solves points i with i mod N = I - 1, as --shard I/N.  The sweep starts
    when called; a value Python can refuse (a float for an integer) raises
    tilefit.Error at the call, other bad input when the iterator reaches it
    (at once, before any point); a point that fails is a dict with
    "status": "error", not an exception.  close() the iterator (or drop
    it) to stop the sweep early: nothing is left running or open, whatever
    the process's SIGPIPE disposition.

    >>> points = list(tilefit.sweep({"machines": ["h100-sxm"], "worksets": ["fa3-fwd"],
    ...                              "params": {"d": [64, 128]}}))
    >>> [(p["params"]["d"], p["values"]["B_c"]) for p in points]
    [(64, 208), (128, 192)]
    """
    request = _request("sweep", None, dict(jobs=jobs, memo_max=memo_max, time_limit=time_limit, presolve=presolve,
                                           solver=solver))
    if shard is not None:
        request["shard"] = [_integer(v, "shard[%d]" % i) for i, v in enumerate(_list(shard, "shard", "(I, N)"))]
    if isinstance(spec_or_problems, collections.abc.Mapping):
        request["spec"] = spec_or_problems
    elif isinstance(spec_or_problems, (str, os.PathLike)):
        request["file"] = os.fspath(spec_or_problems)
    else:
        request["problems"] = _list(spec_or_problems, "spec_or_problems", "a spec, a path or a list of problems")
    return _Sweep(request, 3)


# ----------------------------------------------------------------- validate

def _case_expectations(paths):
    """Each case's (id, "expect"), in the order validate runs them: the
    case files' lines, in order (a line the library reads as a case is a
    JSON object; it says what is wrong with any other)."""
    cases = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                for line in f:
                    if line.strip():
                        case = json.loads(line)
                        if isinstance(case, dict):
                            cases.append((case.get("id"), case.get("expect", {})))
        except (OSError, ValueError):
            return None  # the library has read them; rows are not matched then
    return cases


def _derived(expect, answer):
    """What the answer says of what a case expects, in the same form."""
    values, placement = answer.get("values", {}), answer.get("placement", {})
    out = {}
    for key, want in expect.items():
        if key == "placement":
            out[key] = {b: placement.get(b) for b in want}
        elif key == "fits":
            out[key] = answer.get("status") == "fits"
        else:
            out[key] = values.get(key)
    return out


@_named("validate")
def validate(*paths, solver=None, time_limit=None, presolve=None):
    """Runs the cases of one or more CASES.jsonl files, as `tilefit
    validate --json` does: a dict with "cases" (one row dict per case:
    "id", "kind", "result" -- "agree", "differ" or "tuned" --, "expected"
    and "derived" as dicts ({"stages": 6, "placement": {"P": "rf"}},
    {"fits": True}; the case file's "expect", and the answer's values for
    its keys), "expected_text" and "derived_text" as the command line
    prints them, "note", "answer"), the counts "passed", "failed",
    "skipped" and "summary", the line the command line ends with."""
    if len(paths) == 1 and not isinstance(paths[0], (str, os.PathLike)):
        paths = tuple(paths[0])
    files = [os.fspath(p) for p in paths]
    request = _request("validate", None, dict(solver=solver, time_limit=time_limit, presolve=presolve))
    request["files"] = files
    answer = _call(request)[0]
    cases = _case_expectations(files)
    rows = answer["cases"]
    matched = cases is not None and len(cases) == len(rows) and all(
        c[0] == r.get("id") for c, r in zip(cases, rows))
    for i, row in enumerate(rows):
        row["expected_text"], row["derived_text"] = row.get("expected"), row.get("derived")
        want = cases[i][1] if matched else None
        if isinstance(want, dict):
            row["expected"] = want
            answer_ = row.get("answer")
            row["derived"] = _derived(want, answer_) if isinstance(answer_, dict) else None
    answer["summary"] = "%d passed, %d failed, %d skipped" % (answer["passed"], answer["failed"], answer["skipped"])
    return answer


@_named("prune")
def prune(configs, machine=None, workset=None, params=None, map=None, time_limit=None, any_arch=None, keep=False):
    """Which configurations fit, as `tilefit prune --json`: a list with one
    dict per configuration ("where", "config", "fits", and check's fields:
    "memories" with used and capacity, "reason" when it does not fit);
    keep=True: only the ones that fit, as --keep; any_arch=True checks
    objects against a workset on an architecture it does not declare.

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
        request["configs"] = _list(configs, "configs", "a list of configurations or a path")
    for key, value in (("machine", machine), ("workset", workset)):
        if value is not None:
            request[key] = _string(value, key)
    if map is not None:
        request["map"] = _renames(map, "map")
    if params is not None:
        request["params"] = _numbers(params, "params", names=True)
    if time_limit is not None:
        request["time_limit"] = _seconds(time_limit, "time_limit")
    if any_arch is not None:
        request["any_arch"] = _flag(any_arch, "any_arch")
    result = _call(request, {"file": "configs", "configs": "configs"})[0]
    return [c for c in result if c["fits"]] if _flag(keep, "keep") else result


# -------------------------------------------------------------------- names

def machines():
    """The shipped machine names, sorted."""
    return _call({"cmd": "machines"})[0]


def worksets():
    """The shipped workset names, sorted."""
    return _call({"cmd": "worksets"})[0]


def machine(name):
    """One machine in full, as `tilefit machines NAME --json` prints it:
    "name", "description", "file", "fields" (each "field", "value" and
    the "source" it comes from), "sources_file".

    >>> m = tilefit.machine("h100-sxm")
    >>> {f["field"]: f["value"] for f in m["fields"]}["sm_count"]
    132
    """
    return _call({"cmd": "machine", "name": os.fspath(name)}, {"name": "name"})[0]


def workset(name):
    """One workset in full: "name", "description", "file", "arch",
    "params" (each default: a number, or the expression's text), "choose"
    (each variable's domain), "count" (min and max), "let", "buffers"
    (name, memory, place candidates, size, align), "require", "objective".

    >>> tilefit.workset("fa3-fwd")["choose"]["B_r"]
    [64, 128, 192]
    """
    return _call({"cmd": "workset", "name": os.fspath(name)}, {"name": "name"})[0]


def version():
    """The library's version."""
    return _call({"cmd": "version"})[0]["version"]
