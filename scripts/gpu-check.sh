#!/usr/bin/env bash
# The GPU check of issue 20, in one script: runs on a GPU what
# convert-sdfg-to-gpu lowers, and compares every output with the same
# program run on the CPU (sdfg-run --cpu-fallback), with DaCe 1.0.2's own
# CUDA code for the same .sdfg (built with nvcc where the GPU is:
# bench/python/dace_cuda.py) and, for the bench kernels at small sizes,
# with NumPy.
#
#   scripts/gpu-check.sh                 prepare, then run (a GPU machine set
#                                        up with this repository's README)
#   scripts/gpu-check.sh --prepare DIR   build and gather everything into DIR
#                                        (needs no GPU; DIR can be carried to
#                                        a machine with a GPU driver, Python
#                                        with NumPy and, for DaCe's column,
#                                        CUDA's nvcc)
#   scripts/gpu-check.sh --run DIR       run what DIR holds
#
# The programs: DaCe's GPU-scheduled corpus programs, the seeds and the
# `sdfg-bench` kernels after DaCe's apply_gpu_transformations()
# (bench/python/gpu_cases.py), and the seeds and kernels after our
# sdfg-gpu-transform instead (the `_ours` cases). The table (bench/python/gpu_table.py) gives,
# per program, whether the GPU's outputs are the CPU's, NumPy's and DaCe's,
# and the median times of the three runs. REPEAT (timed calls, default 5),
# TIMEOUT (seconds per run, default 60), GPU_JOBS and CPU_JOBS (programs at
# a time) tune it.
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
  # Arrays over CARRY_BYTES per program stay behind, and NumPy's outputs
  # for them: sdfg-run makes them on the GPU machine (with the same seed on
  # the GPU and the CPU) and saves them there for DaCe's run. Scalars stay.
  .venv/bin/python - "$out/cases" "${CARRY_BYTES:-262144}" <<'EOF'
import os, shutil, sys
import numpy as np
root, limit = sys.argv[1], int(sys.argv[2])
for case in sorted(os.listdir(root)):
    inputs = os.path.join(root, case, "in")
    if not os.path.isdir(inputs):
        continue
    files = [os.path.join(inputs, f) for f in os.listdir(inputs)]
    if sum(os.path.getsize(f) for f in files) <= limit:
        continue
    for f in files:
        if np.load(f).ndim > 0:
            os.remove(f)
    shutil.rmtree(os.path.join(root, case, "numpy"), ignore_errors=True)
EOF
  # DaCe's own CUDA sources for the same programs, built on the GPU machine.
  .venv/bin/python bench/python/dace_cuda.py prepare "$out/cases" | grep -v '^PREPARED' || true
  cp bench/python/gpu_table.py bench/python/dace_cuda.py "$out/"
}

# One run of one program: `gpu` (sdfg-run on the GPU), `cpu` (sdfg-run
# --cpu-fallback) or `dace` (DaCe's CUDA build, when the case has one);
# leaves RUN.log, RUN.rc and the outputs in the case's folder.
run_one() {
  local case=$1 run=$2 bin=$3 args=() program=$1/gpu.sdfg
  # A `_ours` case: the program and the pipeline (our GPU transform) that
  # sdfg-run applies to it.
  if [ -f "$case/program.sdfg" ]; then
    program=$case/program.sdfg
    args+=("--pass-pipeline=$(cat "$case/pipeline")")
  fi
  [ -f "$program" ] || return 0
  if [ -f "$case/symbols" ]; then
    while IFS= read -r kv; do [ -n "$kv" ] && args+=(--set "$kv"); done <"$case/symbols"
  fi
  if [ -d "$case/in" ]; then
    for f in "$case"/in/*.npy; do [ -f "$f" ] && args+=(--input "$(basename "$f" .npy)=$f"); done
  fi
  local rc=0
  case $run in
    gpu) rm -rf "$case/gpu" "$case/inputs"
      timeout "$TIMEOUT" "$bin" "$program" "${args[@]}" --save-inputs "$case/inputs" --out "$case/gpu" --time --repeat "$REPEAT" >"$case/gpu.log" 2>&1 || rc=$? ;;
    cpu) rm -rf "$case/cpu"
      timeout "$TIMEOUT" "$bin" "$program" "${args[@]}" --cpu-fallback --out "$case/cpu" --time --repeat "$REPEAT" >"$case/cpu.log" 2>&1 || rc=$? ;;
    dace) [ -f "$case/dace/libprogram.so" ] || return 0
      # The inputs our GPU run made and saved, else the carried ones.
      local inputs=$case/inputs
      [ -d "$inputs" ] || inputs=$case/in
      rm -rf "$case/dace_out"
      timeout "$TIMEOUT" python3 "$DIR/dace_cuda.py" run "$case" --repeat "$REPEAT" --timeout "$TIMEOUT" --inputs "$inputs" >"$case/dace.log" 2>&1 || rc=$? ;;
  esac
  echo "$rc" >"$case/$run.rc"
}

run() {
  # One program's failure is a row of the table, not the end of the run.
  set +e +o pipefail
  DIR=$(cd "$1" && pwd)
  local bin=$DIR/bin/sdfg-run
  [ -x "$bin" ] || python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" "$bin.xz" "$bin"
  chmod +x "$bin"
  export DIR REPEAT TIMEOUT=${TIMEOUT:-60} MLIR_SYS_190_PREFIX=$DIR
  [ -d "$DIR/cuda" ] && export SDFG_CUDA_TOOLKIT=${SDFG_CUDA_TOOLKIT:-$DIR/cuda}
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
  export -f run_one
  # The CPU runs, CPU_JOBS programs at a time with the cores shared out
  # between them but two, go alongside our GPU runs and then DaCe's,
  # GPU_JOBS at a time (few, so that kernels of different programs seldom
  # share the GPU).
  local gpu_jobs=${GPU_JOBS:-2} cpu_jobs=${CPU_JOBS:-3}
  local threads=$(( ($(nproc) - 2) / cpu_jobs > 0 ? ($(nproc) - 2) / cpu_jobs : 1 ))
  echo "REPEAT=$REPEAT TIMEOUT=${TIMEOUT}s GPU_JOBS=$gpu_jobs CPU_JOBS=$cpu_jobs OMP_NUM_THREADS=$threads (times: medians of whole calls in ms, argument copies included)"
  if ls "$DIR"/cases/*/dace/signature.json >/dev/null 2>&1; then
    local start=$SECONDS
    python3 "$DIR/dace_cuda.py" build "$DIR/cases" --jobs "$(nproc)" >"$DIR/dace-build.log" 2>&1
    echo "DaCe builds: $(grep -c '^BUILT' "$DIR/dace-build.log") built, $(grep -c '^BUILDFAIL' "$DIR/dace-build.log") failed, $((SECONDS - start)) s"
    grep '^BUILDFAIL' "$DIR/dace-build.log" | cut -c1-150
  fi
  phase() {
    local run=$1 jobs=$2 start=$SECONDS
    ls -d "$DIR"/cases/*/ | xargs -P "$jobs" -I{} bash -c 'run_one "$1" "$2" "$3"' _ {} "$run" "$bin"
    echo "$run runs: $((SECONDS - start)) s"
  }
  OMP_NUM_THREADS=$threads phase cpu "$cpu_jobs" &
  phase gpu "$gpu_jobs"
  phase dace "$gpu_jobs"
  wait
  python3 "$DIR/gpu_table.py" "$DIR/cases"
}

case $mode in
  prepare) prepare "$dir" ;;
  run) run "$dir" ;;
  both) prepare "$dir" && run "$dir" ;;
esac
