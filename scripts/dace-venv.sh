#!/usr/bin/env bash
# Creates the Python virtual environment with DaCe 1.0.2, the semantic
# oracle and benchmark baseline, at .venv (or $SDFG_VENV) if it is missing,
# and CUDA's ptxas and libdevice (the nvidia-cuda-nvcc-cu12 wheel: the GPU
# tests assemble every PTX they produce, with no GPU and no CUDA install),
# and Xilinx's ap_int.h for C simulation (see the end).
# DaCe 1.0.2 breaks with networkx 3.5 or later and with NumPy 2.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${SDFG_VENV:-.venv}"
if ! { [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import dace, sympy" 2>/dev/null; }; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --upgrade pip
  "$venv/bin/pip" install -q dace==1.0.2 'networkx<3.5' 'numpy<2'
fi
if ! "$venv/bin/python" -c "import nvidia.cuda_nvcc" 2>/dev/null; then
  "$venv/bin/pip" install -q 'nvidia-cuda-nvcc-cu12==12.9.*'
fi
# Xilinx's arbitrary-precision types (ap_int.h, Apache-2.0) for C simulation
# of kernels with integers of widths C++ has no type for: the copy the
# hls4ml wheel ships, extracted to $venv/ap_types (the wheel is not
# installed). Its hls_stream.h is left out: the project has its own.
ap_types="$venv/ap_types"
if [ ! -f "$ap_types/ap_int.h" ]; then
  wheels=$(mktemp -d)
  "$venv/bin/pip" download -q --no-deps 'hls4ml==1.3.0' -d "$wheels"
  "$venv/bin/python" - "$wheels" "$ap_types" <<'PY'
import glob, os, sys, zipfile
wheels, target = sys.argv[1], sys.argv[2]
prefix = "hls4ml/templates/vivado/ap_types/"
with zipfile.ZipFile(glob.glob(os.path.join(wheels, "hls4ml-*.whl"))[0]) as wheel:
    for name in wheel.namelist():
        rest = name[len(prefix):]
        if name.startswith(prefix) and rest and not name.endswith("/") and rest != "hls_stream.h":
            path = os.path.join(target, rest)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as out:
                out.write(wheel.read(name))
PY
  rm -rf "$wheels"
fi
