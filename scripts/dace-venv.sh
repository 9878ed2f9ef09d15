#!/usr/bin/env bash
# Creates the Python virtual environment with DaCe 1.0.2, the semantic
# oracle and benchmark baseline, at .venv (or $SDFG_VENV) if it is missing,
# and CUDA's ptxas and libdevice (the nvidia-cuda-nvcc-cu12 wheel: the GPU
# tests assemble every PTX they produce, with no GPU and no CUDA install).
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
