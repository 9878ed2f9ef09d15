"""Runs .sdfg files in DaCe 1.0.2 on generated inputs and saves inputs and
outputs as .npy files, for comparison with sdfg-run.

usage: dace_run.py OUTDIR SEED FILE...

For each FILE, OUTDIR/<stem>/ receives:
  status      "ok", "skip: <why the arguments cannot be generated>" or
              "dace: <why DaCe could not run it>" (including two runs on the
              same inputs that disagree)
  symbols     NAME=VALUE lines: every symbol of the SDFG is 32, or 8 when
              that makes the arguments larger than 2**22 elements
  in/*.npy    the inputs (scalars as 0-d arrays), C order
  dace/*.npy  every argument after DaCe ran, C order
Integer arrays hold sorted values in [0, size) (which keeps CSR row
pointers and index arrays in bounds), floats are uniform in [0, 1). Every file runs
in its own process (a crash in DaCe's generated code is a "dace:" status),
two at a time.
"""
import copy
import os
import signal
import sys
import warnings

warnings.filterwarnings("ignore")

SIZES = (32, 8)
LIMIT = 1 << 22
TIMEOUT = 120


def generate(sdfg, seed):
    for size in SIZES:
        args, symbols, elements = generate_with(sdfg, seed, size)
        if elements <= LIMIT:
            break
    return args, symbols


def generate_with(sdfg, seed, size):
    import dace
    import numpy as np

    rng = np.random.default_rng(seed)
    symbols = {str(s): size for s in sdfg.free_symbols}
    for s in sdfg.symbols:
        symbols.setdefault(str(s), size)
    for s in list(symbols):
        if s in sdfg.constants:
            del symbols[s]
    args = {}
    elements = 0
    for name in sorted(sdfg.arrays):
        desc = sdfg.arrays[name]
        if desc.transient:
            continue
        if not isinstance(desc, (dace.data.Array, dace.data.Scalar)) or isinstance(desc, (dace.data.View, dace.data.Reference)):
            raise ValueError(f"argument {name} is a {type(desc).__name__}")
        dtype = desc.dtype.as_numpy_dtype()
        if dtype.kind not in "biuf" or desc.dtype.veclen != 1:
            raise ValueError(f"argument {name} has element type {desc.dtype}")
        shape = [int(dace.symbolic.evaluate(s, {**symbols, **sdfg.constants})) for s in desc.shape]
        elements += int(np.prod(shape))
        if elements > LIMIT:
            return {}, symbols, elements
        if np.issubdtype(dtype, np.integer):
            values = np.sort(rng.integers(0, size, size=shape, dtype=np.int64), axis=None).reshape(shape)
        elif np.issubdtype(dtype, np.bool_):
            values = rng.integers(0, 2, size=shape).astype(bool)
        else:
            values = rng.random(shape)
        values = values.astype(dtype)
        if isinstance(desc, dace.data.Scalar):
            args[name] = values.reshape(-1)[0]
        else:
            array = dace.data.make_array_from_descriptor(desc, values, symbols={**symbols, **sdfg.constants})
            args[name] = array
    return args, symbols, elements


def run_one(path, out, seed):
    import numpy as np
    import dace

    # Arrays with DaCe's strides are views of larger buffers.
    dace.Config.set("compiler", "allow_view_arguments", value=True)
    os.makedirs(out, exist_ok=True)
    status = os.path.join(out, "status")
    try:
        sdfg = dace.SDFG.from_file(path)
        sdfg.validate()
        args, symbols = generate(sdfg, seed)
    except Exception as e:  # noqa: BLE001 - every reason is reported
        with open(status, "w") as f:
            f.write(f"skip: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}\n")
        return
    os.makedirs(os.path.join(out, "in"), exist_ok=True)
    os.makedirs(os.path.join(out, "dace"), exist_ok=True)
    with open(os.path.join(out, "symbols"), "w") as f:
        for k, v in sorted(symbols.items()):
            f.write(f"{k}={v}\n")
    for name, value in args.items():
        np.save(os.path.join(out, "in", name + ".npy"), np.ascontiguousarray(np.asarray(value)))
    with open(status, "w") as f:
        f.write("dace: did not finish\n")
    try:
        sdfg.build_folder = os.path.join(out, "build")
        again = copy.deepcopy(args)
        sdfg(**args, **{k: v for k, v in symbols.items() if k not in args})
        # A second run on the same inputs: a program whose result depends
        # on uninitialised memory or on the thread schedule shows it here.
        sdfg(**again, **{k: v for k, v in symbols.items() if k not in again})
    except Exception as e:  # noqa: BLE001
        with open(status, "w") as f:
            f.write(f"dace: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}\n")
        return
    for name in args:
        a, b = np.asarray(args[name]), np.asarray(again[name])
        if not np.array_equal(a, b, equal_nan=a.dtype.kind == "f"):
            with open(status, "w") as f:
                f.write(f"dace: nondeterministic: two runs give different {name}\n")
            return
    for name, value in args.items():
        # Scalars are passed by value: what DaCe writes to them is lost.
        if not isinstance(sdfg.arrays[name], dace.data.Scalar):
            np.save(os.path.join(out, "dace", name + ".npy"), np.ascontiguousarray(np.asarray(value)))
    with open(status, "w") as f:
        f.write("ok\n")


def main():
    out_dir, seed, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    import dace  # noqa: F401 - imported once, before the children fork

    running = {}
    pending = list(files)
    while pending or running:
        while pending and len(running) < 2:
            path = pending.pop(0)
            stem = os.path.splitext(os.path.basename(path))[0]
            out = os.path.join(out_dir, stem)
            pid = os.fork()
            if pid == 0:
                try:
                    sys.stdout = open(os.devnull, "w")
                    sys.stderr = open(os.devnull, "w")
                    os.dup2(sys.stdout.fileno(), 1)
                    os.dup2(sys.stderr.fileno(), 2)
                    signal.alarm(TIMEOUT)
                    run_one(path, out, seed)
                finally:
                    os._exit(0)
            running[pid] = out
        pid, _ = os.wait()
        running.pop(pid, None)


if __name__ == "__main__":
    main()
