#!/usr/bin/env bash
# C simulation of an SDFG: the FPGA transform, --emit-hls and
# --emit-hls-testbench, g++ with the project's hls_stream.h, the testbench
# on the inputs sdfg-run saves, and its outputs compared with sdfg-run's.
#
# usage: simulate.sh PROGRAM.mlir WORK_DIR HLS_INCLUDE [SYMBOL=VALUE ...]
# (SDFG_FPGA_TRANSFORM, default sdfg-fpga-transform, is the transform with
# its options; SDFG_AP_TYPES, where set, the folder of ap_int.h.)
set -euo pipefail
program=$1 work=$2 include=$3
shift 3
sets=()
for s in "$@"; do sets+=(--set "$s"); done
rm -rf "$work" && mkdir -p "$work/out"
sdfg-opt "$program" --pass-pipeline="builtin.module(${SDFG_FPGA_TRANSFORM:-sdfg-fpga-transform})" \
  -o "$work/fpga.mlir"
sdfg-translate --emit-hls "$work/fpga.mlir" -o "$work/kernel.cpp"
sdfg-translate --emit-hls-testbench "$work/fpga.mlir" -o "$work/testbench.cpp"
g++ -std=c++14 -Wall -Wextra -Werror -Wno-unknown-pragmas -O1 -pthread -I "$include" \
  ${SDFG_AP_TYPES:+-isystem "$SDFG_AP_TYPES"} \
  "$work/kernel.cpp" "$work/testbench.cpp" -o "$work/simulation"
sdfg-run "$program" "${sets[@]}" --seed 7 --save-inputs "$work/in" --out "$work/reference" > /dev/null
"$work/simulation" "$work/in" "$work/out" "$@"
/usr/bin/python3 "$(dirname "$0")/compare.py" "$work/reference" "$work/out"
