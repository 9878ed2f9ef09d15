"""Times DaCe's SymPy path on the strings that `sdfg-bench symbolic` collected.

Usage: python sympy_bench.py STRINGS.json REPETITIONS
STRINGS.json is a list of [mode, text] with mode "expr" or "stmt" (Python
statements whose right-hand sides are parsed). Prints one JSON line.
"""
import json
import re
import sys
import time

import sympy
from sympy.core.cache import clear_cache
from dace import symbolic

ASSIGN = re.compile(r"^\s*[A-Za-z_][A-Za-z0-9_]*\s*=(?!=)(.*)$")


def pieces(mode, text):
    if mode == "expr":
        return [text]
    out = []
    for line in re.split(r"[\n;]", text):
        if not line.strip():
            continue
        m = ASSIGN.match(line)
        out.append(m.group(1) if m else line)
    return out


def run(items):
    ok = 0
    for parts in items:
        try:
            for text in parts:
                e = symbolic.pystr_to_symbolic(text)
                if isinstance(e, sympy.Expr):
                    sympy.expand(e)
            ok += 1
        except Exception:  # noqa: BLE001 - failures are counted, not fatal
            pass
    return ok


def main():
    with open(sys.argv[1]) as f:
        strings = json.load(f)
    reps = int(sys.argv[2])
    items = [pieces(mode, text) for mode, text in strings]
    best = float("inf")
    ok = 0
    for _ in range(reps):
        symbolic.pystr_to_symbolic.cache_clear()
        clear_cache()
        t = time.perf_counter()
        ok = run(items)
        best = min(best, time.perf_counter() - t)
    print(json.dumps({"count": len(items), "ok": ok, "best_ms": best * 1e3}))


if __name__ == "__main__":
    main()
