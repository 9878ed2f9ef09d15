"""Has DaCe 1.0.2 write NumPy-style programs as .sdfg files, both simplified
and not, runs each file in DaCe on the program's inputs, and checks DaCe
against the program's own NumPy reference.

usage: numpy_programs.py OUTDIR PROGRAM.py...

A PROGRAM.py defines PROGRAM (a @dace.program), SYMBOLS (name -> int, the
sizes tests run at), CONFIG ({(section, key): value} of dace.Config),
inputs(rng, S) (every argument, for the sizes S) and reference(arrays, S)
(the expected arrays); the `kernels` benchmark's programs also define
BENCH_SYMBOLS, the sizes it times them at. For each form,
OUTDIR/<stem>/ (simplified) and OUTDIR/<stem>.nosimplify/ receive what
dace_run.py writes for a corpus file (status, symbols, in/*.npy,
dace/*.npy) and:
  program.sdfg  the file DaCe wrote (SDFG.to_sdfg(simplify=...)), which
                DaCe then loads and runs
  numpy         "ok", or which arrays DaCe computes differently from NumPy
"""
import importlib.util
import os
import sys

from dace_run import in_children

SEED = 0


def load(path):
    spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(path))[0], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write(path, text):
    with open(path, "w") as f:
        f.write(text + "\n")


def run_program(path, out, simplify):
    import numpy as np
    import dace

    os.makedirs(os.path.join(out, "in"), exist_ok=True)
    os.makedirs(os.path.join(out, "dace"), exist_ok=True)
    status = os.path.join(out, "status")
    write(status, "dace: did not finish")
    module = load(path)
    for (section, key), value in module.CONFIG.items():
        dace.Config.set(section, key, value=value)
    args = module.inputs(np.random.default_rng(SEED), module.SYMBOLS)
    write(os.path.join(out, "symbols"), "\n".join(f"{k}={v}" for k, v in sorted(module.SYMBOLS.items())))
    for name, value in args.items():
        np.save(os.path.join(out, "in", name + ".npy"), value)
    expected = module.reference({k: v.copy() for k, v in args.items()}, module.SYMBOLS)
    try:
        file = os.path.join(out, "program.sdfg")
        module.PROGRAM.to_sdfg(simplify=simplify).save(file)
        sdfg = dace.SDFG.from_file(file)
        sdfg.name += "_simplified" if simplify else "_nosimplify"
        sdfg.build_folder = os.path.join(out, "build")
        sdfg(**args, **module.SYMBOLS)
    except Exception as e:  # noqa: BLE001 - every reason is reported
        write(status, f"dace: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
        return
    for name, value in args.items():
        np.save(os.path.join(out, "dace", name + ".npy"), value)
    wrong = [n for n, v in expected.items() if not np.allclose(args[n], v, rtol=1e-10, atol=1e-10)]
    write(os.path.join(out, "numpy"), "ok" if not wrong else "DaCe differs from NumPy on " + ", ".join(wrong))
    write(status, "ok")


def main():
    out_dir, files = sys.argv[1], sys.argv[2:]
    import dace  # noqa: F401 - imported once, before the children fork

    jobs = []
    for path in files:
        stem = os.path.splitext(os.path.basename(path))[0]
        for simplify, suffix in ((True, ""), (False, ".nosimplify")):
            jobs.append((run_program, (path, os.path.join(out_dir, stem + suffix), simplify)))
    in_children(jobs, limit=300)


if __name__ == "__main__":
    main()
