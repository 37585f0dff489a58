"""Reads a Python fragment tilefit emitted (emit --for triton|cute-dsl|fa)
with Python's own parser and prints, as one JSON object, the values it
binds: each top-level NAME = dict(...) / {...} / number, and a configs
list of triton.Config calls as [[meta-parameters, keywords], ...].  The
tests compare these with the answer's values.  Exits 1 when the file does
not parse."""
import ast
import json
import sys


def literal(node):
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "dict":
        return {k.arg: literal(k.value) for k in node.keywords}
    if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "Config":
        return [literal(node.args[0]), {k.arg: literal(k.value) for k in node.keywords}]
    if isinstance(node, ast.List):
        return [literal(e) for e in node.elts]
    if isinstance(node, ast.Attribute):
        return ast.unparse(node)
    return ast.literal_eval(node)


def main(path):
    try:
        tree = ast.parse(open(path).read(), path)
    except SyntaxError as e:
        print("does not parse: %s" % e, file=sys.stderr)
        return 1
    out = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            out[stmt.targets[0].id] = literal(stmt.value)
    print(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
