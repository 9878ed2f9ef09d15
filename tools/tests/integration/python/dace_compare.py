"""Runs two .sdfg files in DaCe 1.0.2 on the same random inputs and compares
every non-transient container afterwards.

usage: dace_compare.py ORIGINAL EXPORTED [SEED | CASE]
Prints "SAME <name>" or "DIFF <name> <reason>" and exits 0 when all match.
Every free symbol is set to 8; integer arrays hold sorted values in [0, 8),
which keeps index arrays (CSR row pointers, column indices) in bounds.
Where the third argument is a folder, the inputs are the program's own
instead, where it has them: CASE/in/NAME.npy and the symbols in
CASE/symbols (NAME=VALUE per line), for programs that random inputs would
not end on (a Collatz loop from 0).
"""
import copy
import os
import sys
import warnings

warnings.filterwarnings("ignore")
import numpy as np  # noqa: E402
import dace  # noqa: E402

SIZE = 8


def inputs(sdfg, seed):
    rng = np.random.default_rng(seed)
    symbols = {str(s): SIZE for s in sdfg.free_symbols}
    args = {}
    for name in sorted(sdfg.arrays):
        desc = sdfg.arrays[name]
        if desc.transient:
            continue
        dtype = desc.dtype.as_numpy_dtype()
        shape = [int(dace.symbolic.evaluate(s, symbols)) for s in desc.shape]
        if np.issubdtype(dtype, np.integer):
            values = np.sort(rng.integers(0, SIZE, size=shape, dtype=np.int64), axis=None).reshape(shape)
        elif np.issubdtype(dtype, np.bool_):
            values = rng.integers(0, 2, size=shape).astype(bool)
        else:
            values = rng.random(shape)
        values = values.astype(dtype)
        if isinstance(desc, dace.data.Scalar):
            args[name] = values.reshape(-1)[0]
        else:
            args[name] = values
    return args, symbols


def saved_inputs(sdfg, case):
    args, symbols = inputs(sdfg, 0)
    if os.path.exists(os.path.join(case, "symbols")):
        with open(os.path.join(case, "symbols")) as f:
            for line in f:
                name, _, value = line.strip().partition("=")
                if name:
                    symbols[name] = float(value) if "." in value or "e" in value else int(value)
    for name in list(args):
        path = os.path.join(case, "in", name + ".npy")
        if not os.path.exists(path):
            continue
        desc = sdfg.arrays[name]
        values = np.load(path).astype(desc.dtype.as_numpy_dtype())
        args[name] = values.reshape(-1)[0] if isinstance(desc, dace.data.Scalar) else values
    return args, symbols


def run(path, seed):
    sdfg = dace.SDFG.from_file(path)
    if isinstance(seed, str):
        args, symbols = saved_inputs(sdfg, seed)
    else:
        args, symbols = inputs(sdfg, seed)
    outputs = copy.deepcopy(args)
    sdfg(**outputs, **{k: v for k, v in symbols.items() if k not in outputs})
    return outputs


def main():
    original, exported = sys.argv[1], sys.argv[2]
    seed = 0
    if len(sys.argv) > 3:
        seed = sys.argv[3] if os.path.isdir(sys.argv[3]) else int(sys.argv[3])
    a = run(original, seed)
    b = run(exported, seed)
    same = True
    for name in sorted(a):
        if name not in b:
            print("DIFF", name, "missing after export")
            same = False
        elif not np.allclose(np.asarray(a[name]), np.asarray(b[name]), equal_nan=True):
            print("DIFF", name, "values differ")
            same = False
        else:
            print("SAME", name)
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
