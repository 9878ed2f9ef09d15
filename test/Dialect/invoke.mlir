// RUN: sdfg-opt %s -split-input-file | sdfg-opt -split-input-file | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --verify-diagnostics --mlir-print-op-generic > /dev/null
// RUN: sdfg-opt %S/Inputs/invoke-invalid.mlir -split-input-file --verify-diagnostics

// CHECK-LABEL: func.func @caller
// CHECK: sdfg.invoke @scale(%{{.*}}, %{{.*}} : memref<?xf64>, memref<f64>) symbols ["N"](%{{.*}})
sdfg.sdfg @scale(%x: !sdfg.array<f64 ["N"]> as "x", %a: !sdfg.scalar<f64> as "a") symbols {N = i64} {
  sdfg.state @s {
  }
}
func.func @caller(%x: memref<?xf64>, %a: memref<f64>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  sdfg.invoke @scale(%x, %a : memref<?xf64>, memref<f64>) symbols ["N"](%n)
  return
}
