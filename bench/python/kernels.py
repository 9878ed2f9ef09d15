"""The DaCe 1.0.2 and NumPy side of `sdfg-bench kernels`.

usage: kernels.py OUTDIR REPS KERNEL.py...

A KERNEL.py (bench/kernels/) defines PROGRAM (a @dace.program in NumPy
style), BENCH_SYMBOLS (the sizes it is timed at), inputs(rng, S) and
reference(arrays, S), its NumPy version (see the test driver
numpy_programs.py for the whole format). For each kernel, OUTDIR/<kernel>/
receives the program as DaCe's frontend writes it (program.sdfg,
simplified), `symbols`, the inputs (in/*.npy), DaCe's outputs (dace/*.npy)
and NumPy's (numpy/*.npy); the script prints one line per kernel:
    KERNEL <name> <dace median ms> <numpy median ms> <how DaCe ran> <DaCe vs NumPy>
           <auto_optimize median ms> <auto_optimize transformation ms>
DaCe runs at its best: the simplified SDFG and the same SDFG through
`auto_optimize` for the CPU with its OpenBLAS/LAPACK implementations
(`libopenblas-dev` and `liblapacke-dev` installed), and the faster of the
two whose outputs agree with the simplified one's is reported. The
auto_optimize time is reported on its own too (`nan` where it fails or
differs), with the time `auto_optimize` itself took to transform the
SDFG (best of three, on fresh copies of the file). Times are medians of
REPS calls on fresh copies of the inputs (copies and compilation not
timed).
"""
import copy
import importlib.util
import os
import sys
import time
import warnings

warnings.filterwarnings("ignore")
import numpy as np  # noqa: E402
import dace  # noqa: E402
from dace.transformation.auto import auto_optimize as ao  # noqa: E402

SEED = 0


def load(path):
    spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(path))[0], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def median_ms(call, args, reps):
    times = []
    for _ in range(reps):
        fresh = copy.deepcopy(args)
        start = time.perf_counter()
        call(fresh)
        times.append((time.perf_counter() - start) * 1e3)
    return sorted(times)[len(times) // 2]


def arrays_of(values):
    return {k: v for k, v in values.items() if isinstance(v, np.ndarray) and v.ndim > 0}


def save_all(folder, values):
    os.makedirs(folder, exist_ok=True)
    for k, v in values.items():
        np.save(os.path.join(folder, k + ".npy"), np.asarray(v))


def agree(a, b):
    """Which arrays of `a` differ from `b` (NumPy's allclose, NaN equal)."""
    return [k for k, v in a.items()
            if k in b and not np.allclose(v, b[k], rtol=1e-9, atol=1e-9, equal_nan=True)]


def run_kernel(path, out, reps):
    module = load(path)
    name = os.path.splitext(os.path.basename(path))[0]
    case = os.path.join(out, name)
    symbols = module.BENCH_SYMBOLS
    for (section, key), value in module.CONFIG.items():
        dace.Config.set(section, key, value=value)
    inputs = module.inputs(np.random.default_rng(SEED), symbols)
    save_all(os.path.join(case, "in"), inputs)
    with open(os.path.join(case, "symbols"), "w") as f:
        for k, v in symbols.items():
            f.write(f"{k}={v}\n")
    sdfg = module.PROGRAM.to_sdfg(simplify=True)
    sdfg.save(os.path.join(case, "program.sdfg"))

    def compiled_call(graph, label):
        graph.name = f"{name}_{label}"
        graph.build_folder = os.path.join(case, "build_" + label)
        program = graph.compile()
        return lambda args: program(**args, **{k: v for k, v in symbols.items() if k not in args})

    simplified = compiled_call(sdfg, "simplified")
    dace_out = copy.deepcopy(inputs)
    simplified(dace_out)
    save_all(os.path.join(case, "dace"), arrays_of(dace_out))
    expected = module.reference(copy.deepcopy(inputs), symbols)
    save_all(os.path.join(case, "numpy"), arrays_of(expected))
    wrong = agree(arrays_of(dace_out), arrays_of(expected))
    verdict = "agrees" if not wrong else "differs-on:" + ",".join(wrong)

    best, how = median_ms(simplified, inputs, reps), "simplify"
    ao_ms, ao_transform_ms = float("nan"), float("nan")
    try:
        transform_times = []
        for _ in range(3):
            optimized_sdfg = dace.SDFG.from_file(os.path.join(case, "program.sdfg"))
            start = time.perf_counter()
            optimized_sdfg = ao.auto_optimize(optimized_sdfg, dace.DeviceType.CPU, use_gpu_storage=False)
            transform_times.append((time.perf_counter() - start) * 1e3)
        ao_transform_ms = min(transform_times)
        optimized = compiled_call(optimized_sdfg, "auto_optimize")
        check = copy.deepcopy(inputs)
        optimized(check)
        if not agree(arrays_of(check), arrays_of(dace_out)):
            ao_ms = median_ms(optimized, inputs, reps)
            if ao_ms < best:
                best, how = ao_ms, "auto_optimize"
        else:
            how = "simplify(auto_optimize-differs)"
    except Exception as e:  # noqa: BLE001 - DaCe's own failure is reported, not fatal
        how = "simplify(auto_optimize-fails:" + type(e).__name__ + ")"
    numpy_ms = median_ms(lambda a: module.reference(a, symbols), inputs, reps)
    print("KERNEL", name, best, numpy_ms, how, verdict, ao_ms, ao_transform_ms, flush=True)


def main():
    out, reps, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    dace.Config.set("compiler", "allow_view_arguments", value=True)
    for path in files:
        # DaCe 1.0.2 caches parsed expressions across programs, and a
        # program that used `x ** 2` makes later ones translate wrongly.
        dace.symbolic.pystr_to_symbolic.cache_clear()
        try:
            run_kernel(path, out, reps)
        except Exception as e:  # noqa: BLE001 - one kernel's failure is reported
            name = os.path.splitext(os.path.basename(path))[0]
            print("FAILED", name, f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}", flush=True)


if __name__ == "__main__":
    main()
