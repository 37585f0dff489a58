"""A session with the Python module, as the interpreter shows it: each
line below is run in turn and echoed after ">>> " with the value it gives
(docs/library.md shows this script's output).

    PYTHONPATH=PREFIX/lib/python3/dist-packages python3 session.py
"""
import pprint

LINES = [
    'import tilefit',
    'p = tilefit.Problem(machine="h100-sxm", workset="fa3-fwd", params={"d": 128})',
    'r = p.solve(explain=True)',
    'r["values"], r["placement"], r["memories"]["smem"]["used"]',
    'r["explain"]["levels"]',
    '[(a["buffer"], a["memory"], a["alternatives"]) for a in r["explain"]["placement"]]',
    'p.solve(place={"P": "smem"})["values"]',
    'p.check(fix={"B_r": 192, "B_c": 128})["status"]',
    'tilefit.workset("fa3-fwd")["params"]',
    'spec = {"machines": ["h100-sxm", "h200"], "worksets": ["fa3-fwd"], "params": {"d": [64, 128, 256]}}',
    'points = list(tilefit.sweep(spec))',
    '[(q["machine"], q["params"]["d"], q["values"]) for q in points]',
    'p.check(fix={"B_r": 192})',
]

def echo(lines, scope, name):
    """Runs each line as the interpreter would and echoes it after ">>> "
    with its value, or with the last line of the traceback it raises."""
    for line in lines:
        print(">>> " + line)
        try:
            value = eval(compile(line, name, "eval"), scope)
        except SyntaxError:
            exec(compile(line, name, "exec"), scope)
            continue
        except Exception as e:  # shown as the interpreter's last traceback line
            print("Traceback (most recent call last):\n  ...\n%s.%s: %s" % (type(e).__module__, type(e).__name__, e))
            continue
        if value is not None:
            print(pprint.pformat(value, width=100, sort_dicts=False))


if __name__ == "__main__":
    echo(LINES, {}, "<session>")
