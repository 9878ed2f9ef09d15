#!/usr/bin/env bash
# Sets up a Debian 12 machine for this project (idempotently: only what is
# missing is installed) and then runs one job:
#   scripts/run.sh example   validate the built-in Laplace example, lower it
#                            to LLVM, compile and run it, and check it
#                            against NumPy
#   scripts/run.sh test      run every check: rustfmt, clippy, all tests
#   scripts/run.sh install   install what is missing, and nothing else
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(
  llvm-19-dev libmlir-19-dev mlir-19-tools llvm-19-tools libpolly-19-dev libomp-19-dev
  libclang-19-dev
  cmake ninja-build libzstd-dev libz3-dev libxml2-dev zlib1g-dev
  g++ python3 python3-venv python3-numpy
  autoconf automake libtool libgmp-dev m4 pkg-config
  libopenblas-dev liblapacke-dev
  xz-utils
)

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

install_apt_packages() {
  local missing=()
  for package in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
      || missing+=("$package")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "installing: ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}

install_rust_components() {
  if ! command -v cargo >/dev/null; then
    echo "error: cargo is not installed; install a Rust toolchain (rustup) first" >&2
    exit 1
  fi
  if command -v rustup >/dev/null; then
    for component in rustfmt clippy; do
      rustup component list --installed 2>/dev/null | grep -q "^$component" \
        || rustup component add "$component"
    done
  fi
}

main() {
  local job="${1:-}"
  case "$job" in
    example|test|install) ;;
    *) echo "usage: $0 example|test|install" >&2; exit 2 ;;
  esac
  install_apt_packages
  install_rust_components
  if [ "$job" = install ]; then
    return
  fi
  if [ "$job" = example ]; then
    cargo build -q -p sdfg-tools --bins
    local example=examples/laplace.mlir n=65536 steps=200 work
    work=$(mktemp -d)
    echo "== validate $example"
    target/debug/sdfg-opt --pass-pipeline='builtin.module(sdfg-validate)' "$example" >/dev/null
    echo "ok: $example is a valid SDFG"
    echo "== lower it to the llvm dialect (sdfg-lower-to-llvm)"
    target/debug/sdfg-opt --pass-pipeline='builtin.module(sdfg-lower-to-llvm)' "$example" \
      -o "$work/laplace.llvm.mlir"
    echo "ok: $(grep -c 'llvm.func' "$work/laplace.llvm.mlir") LLVM functions"
    echo "== compile (LLVM -O3, host CPU, OpenMP) and run it: N=$n, T=$steps, random A"
    target/debug/sdfg-run "$example" --set N=$n --set T=$steps --seed 1 \
      --save-inputs "$work/in" --out "$work/out" --time
    echo "== compare with NumPy"
    /usr/bin/python3 examples/laplace_reference.py "$work/in/A.npy" "$work/out/A.npy" $steps
    rm -rf "$work"
  else
    cargo fmt --all -- --check
    cargo clippy -q --workspace --all-targets -- -D warnings
    bash scripts/dace-venv.sh
    local log
    log=$(mktemp)
    SDFG_REQUIRE_DACE=1 cargo test --workspace 2>&1 | tee "$log"
    # One closing line for the whole run, summed over every test binary.
    awk '/^test result:/ { p += $4; f += $6 } END { printf "%d passed, %d failed\n", p, f }' "$log"
    rm -f "$log"
  fi
}

main "$@"
