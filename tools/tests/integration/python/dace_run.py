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
pointers and index arrays in bounds), floats (and both parts of complex
numbers) are uniform in [0, 1). A structure's members are arguments
`structure.member`. Every file runs
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
    containers = []
    for name in sorted(sdfg.arrays):
        desc = sdfg.arrays[name]
        if desc.transient:
            continue
        if isinstance(desc, dace.data.Structure) and not isinstance(desc, dace.data.View):
            # Members are arguments of their own, named as DaCe names them.
            containers += [(f"{name}.{m}", d) for m, d in desc.members.items()]
        else:
            containers.append((name, desc))
    for name, desc in containers:
        if not isinstance(desc, (dace.data.Array, dace.data.Scalar)) or isinstance(desc, (dace.data.View, dace.data.Reference)):
            raise ValueError(f"argument {name} is a {type(desc).__name__}")
        # `dace::vec<T, 1>` is T (DaCe's NumPy type for it has an extra
        # dimension of 1).
        element = desc.dtype.base_type if isinstance(desc.dtype, dace.dtypes.vector) and desc.dtype.veclen == 1 else desc.dtype
        dtype = element.as_numpy_dtype()
        if dtype.kind not in "biufc" or element.veclen != 1:
            raise ValueError(f"argument {name} has element type {desc.dtype}")
        shape = [int(dace.symbolic.evaluate(s, {**symbols, **sdfg.constants})) for s in desc.shape]
        elements += int(np.prod(shape))
        if elements > LIMIT:
            return {}, symbols, elements
        if np.issubdtype(dtype, np.integer):
            values = np.sort(rng.integers(0, size, size=shape, dtype=np.int64), axis=None).reshape(shape)
        elif np.issubdtype(dtype, np.bool_):
            values = rng.integers(0, 2, size=shape).astype(bool)
        elif np.issubdtype(dtype, np.complexfloating):
            values = rng.random(shape) + 1j * rng.random(shape)
        else:
            values = rng.random(shape)
        values = values.astype(dtype)
        if isinstance(desc, dace.data.Scalar):
            args[name] = values.reshape(-1)[0]
        else:
            # The descriptor's layout (strides, padding), with T for
            # `dace::vec<T, 1>`.
            layout = desc
            if element is not desc.dtype:
                layout = copy.deepcopy(desc)
                layout.dtype = element
            array = dace.data.make_array_from_descriptor(layout, values, symbols={**symbols, **sdfg.constants})
            args[name] = array
    return args, symbols, elements


def call_args(sdfg, args):
    """The keyword arguments of a call: structures are ctypes structures of
    their members (arrays by pointer, scalars by value), built from the
    `structure.member` entries of `args`; returns them and the structures,
    whose scalar members the program may write."""
    import ctypes
    import dace
    import numpy as np

    kwargs, structures = {}, {}
    for name, value in args.items():
        structure, _, member = name.partition(".")
        if not member:
            kwargs[name] = value
            continue
        if structure not in structures:
            ctype = sdfg.arrays[structure].dtype._typeclass.as_ctypes()
            structures[structure] = kwargs[structure] = ctype()
        if isinstance(value, np.ndarray) and value.ndim > 0:
            setattr(structures[structure], member, ctypes.c_void_p(value.ctypes.data))
        else:
            setattr(structures[structure], member, np.asarray(value).item())
    return kwargs, structures


def read_back(args, structures):
    """Copies what the program wrote into structures' scalar members back
    into `args`."""
    import numpy as np

    for name in list(args):
        structure, _, member = name.partition(".")
        value = args[name]
        if member and not (isinstance(value, np.ndarray) and value.ndim > 0):
            args[name] = np.asarray(getattr(structures[structure], member), dtype=np.asarray(value).dtype)


def restore_branch_parents(sdfg):
    """DaCe 1.0.2's ConditionalBlock.from_json leaves each branch's
    parent_graph unset (add_branch sets it to the block's own parent), and
    code generation then fails on every file with a conditional block
    ("'NoneType' object has no attribute 'cfg_id'"). This sets what
    add_branch would have set. Only with DACE_RUN_BRANCH_PARENTS=1, so that
    the other tests keep DaCe as it is."""
    from dace.sdfg.state import ConditionalBlock

    for block in sdfg.all_control_flow_blocks():
        if isinstance(block, ConditionalBlock):
            for _, branch in block.branches:
                branch.parent_graph = block.parent_graph
    sdfg.reset_cfg_list()


def run_one(path, out, seed):
    import numpy as np
    import dace

    # Arrays with DaCe's strides are views of larger buffers.
    dace.Config.set("compiler", "allow_view_arguments", value=True)
    os.makedirs(out, exist_ok=True)
    status = os.path.join(out, "status")
    try:
        sdfg = dace.SDFG.from_file(path)
        if os.environ.get("DACE_RUN_BRANCH_PARENTS") == "1":
            restore_branch_parents(sdfg)
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
        for run in (args, again):
            # The second run is on the same inputs: a program whose result
            # depends on uninitialised memory or on the thread schedule
            # shows it here.
            kwargs, structures = call_args(sdfg, run)
            sdfg(**kwargs, **{k: v for k, v in symbols.items() if k not in kwargs})
            read_back(run, structures)
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
        # Scalars are passed by value: what DaCe writes to them is lost
        # (not so for a structure's, read back above).
        if "." in name or not isinstance(sdfg.arrays[name], dace.data.Scalar):
            np.save(os.path.join(out, "dace", name + ".npy"), np.ascontiguousarray(np.asarray(value)))
    with open(status, "w") as f:
        f.write("ok\n")


def in_children(jobs, limit=TIMEOUT):
    """Runs each `(function, args)` of `jobs` in a forked child process, two
    at a time, with its output silenced and `limit` seconds to finish."""
    running = set()
    pending = list(jobs)
    while pending or running:
        while pending and len(running) < 2:
            function, args = pending.pop(0)
            pid = os.fork()
            if pid == 0:
                try:
                    sys.stdout = open(os.devnull, "w")
                    sys.stderr = open(os.devnull, "w")
                    os.dup2(sys.stdout.fileno(), 1)
                    os.dup2(sys.stderr.fileno(), 2)
                    signal.alarm(limit)
                    function(*args)
                finally:
                    os._exit(0)
            running.add(pid)
        pid, _ = os.wait()
        running.discard(pid)


def main():
    out_dir, seed, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    import dace  # noqa: F401 - imported once, before the children fork

    jobs = []
    for path in files:
        stem = os.path.splitext(os.path.basename(path))[0]
        jobs.append((run_one, (path, os.path.join(out_dir, stem), seed)))
    in_children(jobs)


if __name__ == "__main__":
    main()
