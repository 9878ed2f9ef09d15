// RUN: sdfg-opt %s --pass-pipeline='builtin.module(convert-sdfg-to-scf{check-bounds=true})' | FileCheck %s
// RUN: not sdfg-run %s --set N=4 --set M=10 --check-bounds 2>&1 | FileCheck %s --check-prefix=RUNTIME
// RUN: sdfg-run %s --set N=4 --set M=2 --check-bounds | FileCheck %s --check-prefix=INSIDE

// With check-bounds, every access asserts that its element lies inside the
// container; sdfg-run reports a failed check as an error.

// CHECK-LABEL: func.func @oob
// CHECK: %[[SIZE:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<?xf64>
// CHECK: %[[OK:.*]] = arith.cmpi ult, %{{.*}}, %[[SIZE]] : index
// CHECK: cf.assert %[[OK]], "out-of-bounds access to `A[M]` at loc(
// RUNTIME: out-of-bounds access to `A[M]` at loc("{{.*}}bounds.mlir":[[@LINE+9]]:10)
// RUNTIME: sdfg-run: error: the program stopped at a failed check
// INSIDE: A: <f8[4] checksum
sdfg.sdfg @oob(%A: !sdfg.array<f64 ["N"]> as "A") symbols {M = i64, N = i64} {
  sdfg.state @s {
    %t = sdfg.tasklet "one" outs("o" : f64) {
      %c = arith.constant 1.0 : f64
      sdfg.yield %c : f64
    }
    %a = sdfg.access %A writes(%t["M"] : f64) : !sdfg.array<f64 ["N"]>
  }
}
