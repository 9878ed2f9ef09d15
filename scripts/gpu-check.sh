#!/usr/bin/env bash
# The GPU check of issue 20, in one script: runs on a GPU what
# convert-sdfg-to-gpu lowers, and compares every output with the same
# program run on the CPU (sdfg-run --cpu-fallback) and, for the bench
# kernels, with NumPy.
#
#   scripts/gpu-check.sh                 prepare, then run (a GPU machine set
#                                        up with this repository's README)
#   scripts/gpu-check.sh --prepare DIR   build and gather everything into DIR
#                                        (needs no GPU; DIR can be carried to
#                                        a machine with only a GPU driver)
#   scripts/gpu-check.sh --run DIR       run what DIR holds
#
# The programs: DaCe's GPU-scheduled corpus programs, the seeds and the
# `sdfg-bench` kernels after DaCe's apply_gpu_transformations()
# (bench/python/gpu_cases.py). The table gives, per program, whether the
# GPU's outputs are the CPU's (and NumPy's), and the median times of both.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
mode=both
dir=target/gpu-check
case "${1:-}" in
  --prepare) mode=prepare; dir=$2 ;;
  --run) mode=run; dir=$2 ;;
  "") ;;
  *) echo "usage: $0 [--prepare DIR | --run DIR]" >&2; exit 2 ;;
esac
REPEAT=${REPEAT:-5}

prepare() {
  local out=$1
  bash scripts/run.sh install >/dev/null
  bash scripts/dace-venv.sh
  cargo build --release -p sdfg-tools --bin sdfg-run
  rm -rf "$out" && mkdir -p "$out/bin" "$out/lib" "$out/cases"
  # Stripped and compressed (a machine lent only for the GPU run receives
  # DIR over a link of limited size); Python's lzma unpacks it there.
  strip -o "$out/bin/sdfg-run" target/release/sdfg-run
  xz -9 -T0 "$out/bin/sdfg-run"
  cp /usr/lib/llvm-19/lib/libomp.so "$out/lib/"
  local toolkit
  toolkit=$(.venv/bin/python -c 'import nvidia.cuda_nvcc; print(nvidia.cuda_nvcc.__path__[0])' 2>/dev/null || true)
  if [ -n "$toolkit" ]; then
    mkdir -p "$out/cuda/nvvm/libdevice"
    cp "$toolkit"/nvvm/libdevice/libdevice.10.bc "$out/cuda/nvvm/libdevice/"
  fi
  # The corpus programs DaCe validates that schedule maps on the GPU.
  local corpus=${SDFG_CORPUS_DIR:-$repo/../shared/corpus}/dace
  for f in $(grep -l '"GPU_' "$corpus"/*.sdfg); do
    local name
    name=$(basename "$f" .sdfg)
    grep -qP "^$name.sdfg\tok" "$corpus/INDEX.tsv" || continue
    mkdir -p "$out/cases/corpus_$name"
    cp "$f" "$out/cases/corpus_$name/gpu.sdfg"
    .venv/bin/python -c "import sys, dace; print(''.join(f'{s}=64\\n' for s in sorted(dace.SDFG.from_file(sys.argv[1]).free_symbols)), end='')" \
      "$f" >"$out/cases/corpus_$name/symbols"
  done
  .venv/bin/python bench/python/gpu_cases.py "$out/cases" \
    "${SDFG_CORPUS_DIR:-$repo/../shared/corpus}"/seeds/*.sdfg bench/kernels/*.py
}

# One program: runs it on the GPU and on the CPU, prints its row.
run_case() {
  local case=$1 bin=$2 name args=()
  name=$(basename "$case")
  if [ -f "$case/symbols" ]; then
    while IFS= read -r kv; do [ -n "$kv" ] && args+=(--set "$kv"); done <"$case/symbols"
  fi
  if [ -d "$case/in" ]; then
    for f in "$case"/in/*.npy; do args+=(--input "$(basename "$f" .npy)=$f"); done
  fi
  rm -rf "$case/cpu" "$case/gpu"
  local cpu_ms=- gpu_ms=- result
  if ! timeout 120 "$bin" "$case/gpu.sdfg" "${args[@]}" --out "$case/gpu" --time --repeat "$REPEAT" >"$case/gpu.log" 2>&1; then
    result="gpu-fails:$(grep -m1 -o -e 'error: .*' -e 'overflowed.*' -e 'Segmentation.*' "$case/gpu.log" | sed 's/^error: //; s/.*error: //' | cut -c1-60 | tr ' ' '_')"
  elif ! timeout 120 "$bin" "$case/gpu.sdfg" "${args[@]}" --cpu-fallback --out "$case/cpu" --time --repeat "$REPEAT" >"$case/cpu.log" 2>&1; then
    result="cpu-fails"
  else
    result=$(python3 - "$case" <<'EOF'
import os, sys
import numpy as np
case = sys.argv[1]
def load(d):
    p = os.path.join(case, d)
    return {f[:-4]: np.load(os.path.join(p, f)) for f in os.listdir(p)} if os.path.isdir(p) else {}
cpu, gpu, ref = load("cpu"), load("gpu"), load("numpy")
def close(a, b):
    return a.shape == b.shape and np.allclose(a, b, rtol=1e-5, atol=1e-8, equal_nan=True)
bad = [k for k in cpu if k not in gpu or not close(gpu[k], cpu[k])]
if bad:
    print("differs:" + ",".join(bad)); sys.exit()
worse = [k for k in ref if k in gpu and not close(gpu[k].reshape(ref[k].shape) if gpu[k].size == ref[k].size else gpu[k], ref[k])]
print("agrees" + ("(numpy-differs:" + ",".join(worse) + ")" if worse else ("+numpy" if ref else "")))
EOF
)
    cpu_ms=$(grep -o 'median [0-9.]*' "$case/cpu.log" | cut -d' ' -f2)
    gpu_ms=$(grep -o 'median [0-9.]*' "$case/gpu.log" | cut -d' ' -f2)
  fi
  local speedup=-
  if [ -n "$cpu_ms" ] && [ -n "$gpu_ms" ] && [ "$cpu_ms" != - ] && [ "$gpu_ms" != - ]; then
    speedup=$(python3 -c "print(f'{$cpu_ms / max($gpu_ms, 1e-6):.2f}x')")
  fi
  printf '%-40s %-34s %10s %10s %8s\n' "$name" "$result" "$cpu_ms" "$gpu_ms" "$speedup"
}

run() {
  # One program's failure is a row of the table, not the end of the run.
  set +e +o pipefail
  local out
  out=$(cd "$1" && pwd)
  local bin=$out/bin/sdfg-run
  [ -x "$bin" ] || python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" "$bin.xz" "$bin"
  chmod +x "$bin"
  export MLIR_SYS_190_PREFIX=$out REPEAT
  [ -d "$out/cuda" ] && export SDFG_CUDA_TOOLKIT=${SDFG_CUDA_TOOLKIT:-$out/cuda}
  # JOBS programs at a time, the cores shared out between their CPU runs.
  local jobs=${JOBS:-1}
  export OMP_NUM_THREADS=$(( $(nproc) / jobs > 0 ? $(nproc) / jobs : 1 ))
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
  echo "JOBS=$jobs OMP_NUM_THREADS=$OMP_NUM_THREADS REPEAT=$REPEAT (times: medians in ms; speedup: CPU time / GPU time)"
  printf '%-40s %-34s %10s %10s %8s\n' program result cpu_ms gpu_ms speedup
  export -f run_case
  local rows
  rows=$(mktemp)
  ls -d "$out"/cases/*/ | xargs -P "$jobs" -I{} bash -c 'run_case "$1" "$2"' _ {} "$bin" | tee "$rows"
  echo "programs: $(wc -l <"$rows"); ran on the GPU: $(grep -vc gpu-fails "$rows"); same outputs as the CPU: $(grep -c ' agrees' "$rows")"
  rm -f "$rows"
}

case $mode in
  prepare) prepare "$dir" ;;
  run) run "$dir" ;;
  both) prepare "$dir" && run "$dir" ;;
esac
