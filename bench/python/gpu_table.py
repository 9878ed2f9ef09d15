"""The table of the GPU check (scripts/gpu-check.sh): one row per program.

usage: gpu_table.py CASES_DIR

Each CASES_DIR/<program>/ holds what the check's runs left there:
    gpu.log, gpu.rc, gpu/*.npy     sdfg-run on the GPU
    cpu.log, cpu.rc, cpu/*.npy     sdfg-run --cpu-fallback
    dace.log, dace.rc, dace_out/   DaCe 1.0.2's CUDA code (bench/python/dace_cuda.py)
    numpy/*.npy                    NumPy's outputs, for the bench kernels
Outputs are compared with the GPU's (rtol 1e-5, atol 1e-8); times are the
medians the runs print, in milliseconds. Needs only NumPy.
"""
import os
import re
import sys

import numpy as np


def outputs(case, folder):
    path = os.path.join(case, folder)
    if not os.path.isdir(path):
        return {}
    return {f[:-4]: np.load(os.path.join(path, f)) for f in os.listdir(path) if f.endswith(".npy")}


def close(a, b):
    if a.size != b.size:
        return False
    return np.allclose(a.reshape(b.shape), b, rtol=1e-5, atol=1e-8, equal_nan=True)


def status(case, run):
    """(ok, median ms or None, why it failed)."""
    log = os.path.join(case, run + ".log")
    rc_file = os.path.join(case, run + ".rc")
    if not os.path.exists(rc_file):
        return False, None, "not run"
    rc = open(rc_file).read().strip()
    text = open(log, errors="replace").read() if os.path.exists(log) else ""
    if rc != "0":
        if rc in ("124", "137"):
            return False, None, "timeout"
        found = re.findall(r"error: (.*)", text) or [line for line in text.splitlines() if line.strip()][-1:]
        return False, None, (found[0] if found else f"exit {rc}")[:70]
    m = re.search(r"median ([0-9.]+) ms", text)
    return True, (float(m.group(1)) if m else None), ""


def compare(reference, candidate):
    """'same', 'differs:NAMES' or '-' (nothing to compare)."""
    names = [k for k in reference if k in candidate]
    if not names:
        return "-"
    bad = [k for k in names if not close(candidate[k], reference[k])]
    return "differs:" + ",".join(bad) if bad else "same"


def ratio(a, b):
    return f"{a / max(b, 1e-6):.2f}x" if a is not None and b is not None else "-"


def main():
    root = sys.argv[1]
    rows = []
    counts = dict(programs=0, gpu_ran=0, cpu_same=0, dace_ran=0, dace_same=0, faster_than_cpu=0, faster_than_dace=0)
    for name in sorted(os.listdir(root)):
        case = os.path.join(root, name)
        if not any(os.path.isfile(os.path.join(case, f)) for f in ("gpu.sdfg", "program.sdfg")):
            continue
        counts["programs"] += 1
        gpu_ok, gpu_ms, gpu_why = status(case, "gpu")
        cpu_ok, cpu_ms, _ = status(case, "cpu")
        dace_ok, dace_ms, dace_why = status(case, "dace")
        gpu = outputs(case, "gpu") if gpu_ok else {}
        vs_cpu = compare(outputs(case, "cpu"), gpu) if gpu_ok and cpu_ok else "-"
        vs_dace = compare(outputs(case, "dace_out"), gpu) if gpu_ok and dace_ok else "-"
        vs_numpy = compare(outputs(case, "numpy"), gpu) if gpu_ok else "-"
        counts["gpu_ran"] += gpu_ok
        counts["cpu_same"] += vs_cpu == "same"
        counts["dace_ran"] += dace_ok
        counts["dace_same"] += vs_dace == "same"
        if gpu_ok and cpu_ok and gpu_ms is not None and cpu_ms is not None:
            counts["faster_than_cpu"] += gpu_ms < cpu_ms
        if gpu_ok and dace_ok and gpu_ms is not None and dace_ms is not None:
            counts["faster_than_dace"] += gpu_ms < dace_ms
        result = "ran" if gpu_ok else "fails: " + gpu_why
        rows.append((name, result, vs_cpu, vs_numpy, vs_dace if dace_ok else ("dace " + dace_why)[:40],
                     cpu_ms, gpu_ms, dace_ms if dace_ok else None))
    header = ("program", "ours on the GPU", "vs CPU", "vs NumPy", "vs DaCe CUDA",
              "cpu_ms", "gpu_ms", "dace_ms", "cpu/gpu", "dace/gpu")
    fmt = "{:<40} {:<28} {:<14} {:<14} {:<26} {:>10} {:>10} {:>10} {:>8} {:>8}"
    print(fmt.format(*header))
    for name, result, vs_cpu, vs_numpy, vs_dace, cpu_ms, gpu_ms, dace_ms in rows:
        show = [f"{t:.3f}" if t is not None else "-" for t in (cpu_ms, gpu_ms, dace_ms)]
        print(fmt.format(name, result[:28], vs_cpu[:14], vs_numpy[:14], vs_dace[:26], *show,
                         ratio(cpu_ms, gpu_ms), ratio(dace_ms, gpu_ms)))
    print(", ".join(f"{k.replace('_', ' ')}: {v}" for k, v in counts.items()))


if __name__ == "__main__":
    main()
