"""The DaCe 1.0.2 side of `sdfg-bench simplify`.

usage: simplify.py OUTDIR REPS CHAIN_LENGTHS KERNEL.py...

Writes unsimplified programs (`to_sdfg(simplify=False)`) to OUTDIR and
times what DaCe does to them: memlet propagation
(`propagate_memlets_sdfg`) and then `SDFG.simplify()`, each run on a fresh
copy loaded from the file (loading not timed), the best of REPS.

The programs are the `kernels` benchmark's (bench/kernels/*.py) and
chains of K NumPy statements for each K of CHAIN_LENGTHS (comma
separated), which show how the time grows with the program's size:

    t1 = A * 1.5 + 1.0
    t2 = t1 * 1.5 + 1.0
    ...
    B[:] = tK

Prints one line per program:
    PROGRAM <name> <file> <DaCe ms> <nodes before> <states after> <nodes after>
"""
import importlib.util
import os
import sys
import time
import warnings

warnings.filterwarnings("ignore")
import dace  # noqa: E402
from dace.sdfg.propagation import propagate_memlets_sdfg  # noqa: E402


def load(path):
    spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(path))[0], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def size(sdfg):
    # The states of nested SDFGs count too, as in `sdfg_analysis::graph::size`
    # (`all_states` stops at nested SDFGs).
    states = [s for g in sdfg.all_sdfgs_recursive() for s in g.all_states()]
    return len(states), sum(len(s.nodes()) for s in states)


def chain_source(k):
    lines = ["import dace", "N = dace.symbol('N')", "", "@dace.program",
             "def PROGRAM(A: dace.float64[N], B: dace.float64[N]):", "    t0 = A * 1.5 + 1.0"]
    for i in range(1, k):
        lines.append(f"    t{i} = t{i - 1} * 1.5 + 1.0")
    lines.append(f"    B[:] = t{k - 1}")
    return "\n".join(lines) + "\n"


def measure(name, program, out_dir, reps):
    file = os.path.join(out_dir, name + ".sdfg")
    dace.Config.set("compiler", "use_cache", value=False)
    program.to_sdfg(simplify=False).save(file)
    before = size(dace.SDFG.from_file(file))[1]
    best = None
    for _ in range(reps):
        sdfg = dace.SDFG.from_file(file)
        start = time.perf_counter()
        propagate_memlets_sdfg(sdfg)
        sdfg.simplify()
        elapsed = (time.perf_counter() - start) * 1e3
        best = elapsed if best is None else min(best, elapsed)
    states, nodes = size(sdfg)
    print(f"PROGRAM {name} {file} {best:.3f} {before} {states} {nodes}", flush=True)


def main():
    out_dir, reps, lengths, kernels = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    os.makedirs(out_dir, exist_ok=True)
    for path in kernels:
        name = os.path.splitext(os.path.basename(path))[0]
        try:
            module = load(path)
            for (section, key), value in module.CONFIG.items():
                dace.Config.set(section, key, value=value)
            measure(name, module.PROGRAM, out_dir, reps)
        except Exception as e:  # noqa: BLE001 - a kernel DaCe cannot simplify is reported and skipped
            print(f"SKIPPED {name} {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}", flush=True)
        # SymPy results cached by one program's symbols corrupt later ones.
        dace.symbolic.pystr_to_symbolic.cache_clear()
    for k in (int(x) for x in lengths.split(",") if x):
        source = os.path.join(out_dir, f"chain_{k}.py")
        with open(source, "w") as f:
            f.write(chain_source(k))
        measure(f"chain_{k}", load(source).PROGRAM, out_dir, reps)


if __name__ == "__main__":
    main()
