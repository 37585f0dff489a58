"""Bad input raises tilefit.Error: the keyword at fault, and the command's exit code."""
import tilefit

try:
    tilefit.solve("b200", "fa4-fwd", params={"dd": 1})
except tilefit.Error as e:
    print(e.status, e.field, e.message)
