"""Bad input raises tilefit.Error: the one line the command would print, and its exit code."""
import tilefit

try:
    tilefit.solve("b200", "fa4-fwd", params={"dd": 1})
except tilefit.Error as e:
    print(e.status, e.message)
