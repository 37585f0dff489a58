"""Bad values in Python terms, as the interpreter shows them: each line
below is run in turn and echoed after ">>> " with the error it raises
(docs/library.md shows this script's output).

    PYTHONPATH=PREFIX/lib/python3/dist-packages python3 errors.py
"""
from session import echo  # the same echo as session.py, beside this file

LINES = [
    'tilefit.solve("h100-sxm", "fa3-fwd", params={"d": float("nan")})',
    'tilefit.solve("h100-sxm", "fa3-fwd", params={"d": 128.0})',
    'tilefit.solve("h100-sxm", "fa3-fwd", params={"d": 128}, place={"P": "tmem"})',
    'tilefit.sweep({"machines": ["h100-sxm"], "worksets": ["fa3-fwd"], "params": {"d": [64.0]}})',
]

echo(["import tilefit"] + LINES, {}, "<errors>")
