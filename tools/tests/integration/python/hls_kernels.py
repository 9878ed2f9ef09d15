"""Has DaCe 1.0.2 write the `kernels` benchmark's programs as .sdfg files
(simplified, as DaCe's users save them) with their inputs at the small
sizes tests run at, for the HLS C-simulation test. Nothing runs in DaCe.

usage: hls_kernels.py OUTDIR KERNEL.py...

For each KERNEL.py, OUTDIR/<stem>/ receives program.sdfg, symbols
(NAME=VALUE lines) and in/*.npy (every argument, scalars as 0-d arrays),
or a file `status` saying why DaCe could not write it.
"""
import importlib.util
import os
import sys
import warnings

warnings.filterwarnings("ignore")


def main():
    import numpy as np
    import dace

    out = sys.argv[1]
    for path in sys.argv[2:]:
        stem = os.path.splitext(os.path.basename(path))[0]
        case = os.path.join(out, stem)
        os.makedirs(os.path.join(case, "in"), exist_ok=True)
        try:
            spec = importlib.util.spec_from_file_location(stem, path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            for (section, key), value in module.CONFIG.items():
                dace.Config.set(section, key, value=value)
            args = module.inputs(np.random.default_rng(0), module.SYMBOLS)
            for name, value in args.items():
                np.save(os.path.join(case, "in", name + ".npy"), value)
            with open(os.path.join(case, "symbols"), "w") as f:
                f.write("\n".join(f"{k}={v}" for k, v in sorted(module.SYMBOLS.items())) + "\n")
            module.PROGRAM.to_sdfg(simplify=True).save(os.path.join(case, "program.sdfg"))
        except Exception as e:  # a kernel DaCe cannot write is reported, not fatal
            with open(os.path.join(case, "status"), "w") as f:
                f.write(f"dace: {type(e).__name__}: {e}\n")


if __name__ == "__main__":
    main()
