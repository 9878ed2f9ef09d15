#!/usr/bin/env bash
# Creates the Python virtual environment with DaCe 1.0.2, the semantic
# oracle and benchmark baseline, at .venv (or $SDFG_VENV) if it is missing.
# DaCe 1.0.2 breaks with networkx 3.5 or later and with NumPy 2.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${SDFG_VENV:-.venv}"
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import dace, sympy" 2>/dev/null; then
  exit 0
fi
python3 -m venv "$venv"
"$venv/bin/pip" install -q --upgrade pip
"$venv/bin/pip" install -q dace==1.0.2 'networkx<3.5' 'numpy<2'
