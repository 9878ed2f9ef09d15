"""GPU versions of programs, made by DaCe 1.0.2's `apply_gpu_transformations()`.

usage: gpu_cases.py OUTDIR FILE...

A FILE is a `.sdfg` (the seeds) or a bench kernel (`bench/kernels/*.py`,
the format `kernels.py` reads). For each, OUTDIR/<name>/ receives:
    gpu.sdfg    the program after apply_gpu_transformations()
    symbols     NAME=VALUE per line: the sizes it runs at
and for kernels also in/*.npy (the inputs) and numpy/*.npy (NumPy's
outputs on them). OUTDIR/<name>_ours/ holds the same with program.sdfg (the
program before DaCe's transformation) and `pipeline`, the pass pipeline
sdfg-run applies to it (`sdfg-gpu-transform`). The script prints per file:
    CASE <name> and OURS <name>_ours   or   FAILED <name> <DaCe's error>
The transformation needs no GPU: the files are lowered to PTX here and run
where a GPU is (scripts/gpu-check.sh).
"""
import copy
import importlib.util
import os
import shutil
import sys
import warnings

warnings.filterwarnings("ignore")
import numpy as np  # noqa: E402
import dace  # noqa: E402

# What sdfg-run applies to the `_ours` cases: our GPU transform on the
# program as DaCe wrote it.
OUR_PIPELINE = "builtin.module(sdfg-propagate-memlets,sdfg-simplify,sdfg-gpu-transform)"

# Sizes for the seeds' symbols (the seeds hold no inputs: sdfg-run makes
# them, with the same seed on the CPU and the GPU).
SEED_SYMBOLS = {"N": 64, "M": 48, "K": 40, "H": 32, "W": 32, "nnz": 64}


def load(path):
    spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(path))[0], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def save_all(folder, values, scalars):
    """Saves the arrays of `values` (and its NumPy scalars, as 0-d arrays,
    when `scalars`: a program's scalar inputs) as NAME.npy in `folder`."""
    os.makedirs(folder, exist_ok=True)
    for k, v in values.items():
        if (isinstance(v, np.ndarray) and v.ndim > 0) or (scalars and isinstance(v, np.generic)):
            np.save(os.path.join(folder, k + ".npy"), v)


def write_symbols(case, symbols):
    with open(os.path.join(case, "symbols"), "w") as f:
        for k, v in symbols.items():
            f.write(f"{k}={v}\n")


def make(path, out):
    name = os.path.basename(path).split(".")[0]
    if path.endswith(".sdfg"):
        name = "seed_" + name + ("_raw" if path.endswith(".raw.sdfg") else "")
    case = os.path.join(out, name)
    os.makedirs(case, exist_ok=True)
    if path.endswith(".py"):
        module = load(path)
        for (section, key), value in module.CONFIG.items():
            dace.Config.set(section, key, value=value)
        symbols = module.BENCH_SYMBOLS
        inputs = module.inputs(np.random.default_rng(0), symbols)
        save_all(os.path.join(case, "in"), inputs, scalars=True)
        save_all(os.path.join(case, "numpy"), module.reference(copy.deepcopy(inputs), symbols), scalars=False)
        sdfg = module.PROGRAM.to_sdfg(simplify=True)
    else:
        sdfg = dace.SDFG.from_file(path)
        symbols = {s: SEED_SYMBOLS.get(s, 16) for s in sorted(sdfg.free_symbols)}
    write_symbols(case, symbols)
    # The same program for our own transform, which sdfg-run applies.
    ours = case + "_ours"
    shutil.rmtree(ours, ignore_errors=True)
    shutil.copytree(case, ours)
    sdfg.save(os.path.join(ours, "program.sdfg"))
    with open(os.path.join(ours, "pipeline"), "w") as f:
        f.write(OUR_PIPELINE + "\n")
    sdfg.apply_gpu_transformations()
    sdfg.save(os.path.join(case, "gpu.sdfg"))
    print("CASE", name, flush=True)
    print("OURS", name + "_ours", flush=True)


def main():
    out, files = sys.argv[1], sys.argv[2:]
    dace.Config.set("compiler", "allow_view_arguments", value=True)
    for path in files:
        dace.symbolic.pystr_to_symbolic.cache_clear()
        try:
            make(path, out)
        except Exception as e:  # noqa: BLE001 - one file's failure is reported
            name = os.path.basename(path).split(".")[0]
            print("FAILED", name, f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}", flush=True)


if __name__ == "__main__":
    main()
