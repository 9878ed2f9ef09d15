// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// PolyBench doitgen: a transient row, a contraction and a copy back, in parallel over the two outer dimensions.

// SDFG-DAG: sdfg.nested
// SDFG-DAG: sdfg.alloc "tmp" : !sdfg.array<f64 ["5"]>
// CHECK: {{\[\[}}[0.6875,    2.5,    -0.5,    0.625,    1.75],
// CHECK-NEXT: [-1.5625,    -1.5625,    1.1875,    0.5,    -1.5625],
// CHECK-NEXT: [-1.0625,    -0.8125,    2.1875,    1.75,    -1.4375],
// CHECK-NEXT: [1.5,    -0.0625,    1.125,    -1.125,    0.0625]],
// CHECK-NEXT: {{\[\[}}2,    0.6875,    2.125,    0.125,    0.1875],
// CHECK-NEXT: [0.4375,    2.125,    -1,    0,    1.6875],
// CHECK-NEXT: [1.625,    -1.25,    -1.375,    2.625,    -1.625],
// CHECK-NEXT: [-1.3125,    -1.1875,    1.6875,    1.125,    -1.5]],
// CHECK-NEXT: {{\[\[}}-1.5,    1.625,    -0.0625,    2.375,    1.375],
// CHECK-NEXT: [1.75,    0.3125,    1.625,    -0.5,    0.125],
// CHECK-NEXT: [0.1875,    1.75,    -1.5,    -0.625,    1.625],
// CHECK-NEXT: [0.6875,    2.5,    -0.5,    0.625,    1.75]]]

func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
func.func private @printF64(f64)
func.func private @printNewline()

func.func @init1(%A: memref<?xf64>, %seed: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %q = arith.constant 0.25 : f64
  %one = arith.constant 1.0 : f64
  %n = memref.dim %A, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %k = arith.addi %i, %seed : index
    %k7 = arith.muli %k, %c7 : index
    %r = arith.remui %k7, %c11 : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f64
    %g = arith.mulf %f, %q : f64
    %h = arith.subf %g, %one : f64
    memref.store %h, %A[%i] : memref<?xf64>
  }
  return
}
func.func @init2(%A: memref<?x?xf64>, %seed: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %c13 = arith.constant 13 : index
  %q = arith.constant 0.25 : f64
  %one = arith.constant 1.0 : f64
  %n = memref.dim %A, %c0 : memref<?x?xf64>
  %m = memref.dim %A, %c1 : memref<?x?xf64>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %m step %c1 {
      %a = arith.muli %i, %c13 : index
      %b = arith.addi %a, %j : index
      %k = arith.addi %b, %seed : index
      %k7 = arith.muli %k, %c7 : index
      %r = arith.remui %k7, %c11 : index
      %ri = arith.index_cast %r : index to i64
      %f = arith.sitofp %ri : i64 to f64
      %g = arith.mulf %f, %q : f64
      %h = arith.subf %g, %one : f64
      memref.store %h, %A[%i, %j] : memref<?x?xf64>
    }
  }
  return
}
func.func @doitgen(%A: memref<3x4x5xf64>, %C4: memref<5x5xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f64
  scf.parallel (%r, %q) = (%c0, %c0) to (%c3, %c4) step (%c1, %c1) {
    %sum = memref.alloca() : memref<5xf64>
    scf.for %p = %c0 to %c5 step %c1 {
      %s = scf.for %s_ = %c0 to %c5 step %c1 iter_args(%acc = %zero) -> f64 {
        %a = memref.load %A[%r, %q, %s_] : memref<3x4x5xf64>
        %c = memref.load %C4[%s_, %p] : memref<5x5xf64>
        %m = arith.mulf %a, %c : f64
        %t = arith.addf %acc, %m : f64
        scf.yield %t : f64
      }
      memref.store %s, %sum[%p] : memref<5xf64>
    }
    scf.for %p = %c0 to %c5 step %c1 {
      %v = memref.load %sum[%p] : memref<5xf64>
      memref.store %v, %A[%r, %q, %p] : memref<3x4x5xf64>
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %A_flat = memref.alloc() : memref<60xf64>
  %A_dyn = memref.cast %A_flat : memref<60xf64> to memref<?xf64>
  call @init1(%A_dyn, %c3) : (memref<?xf64>, index) -> ()
  %A = memref.reinterpret_cast %A_flat to offset: [0], sizes: [3, 4, 5], strides: [20, 5, 1] : memref<60xf64> to memref<3x4x5xf64>
  %C_flat = memref.alloc() : memref<25xf64>
  %C_dyn = memref.cast %C_flat : memref<25xf64> to memref<?xf64>
  call @init1(%C_dyn, %c2) : (memref<?xf64>, index) -> ()
  %C = memref.reinterpret_cast %C_flat to offset: [0], sizes: [5, 5], strides: [5, 1] : memref<25xf64> to memref<5x5xf64>
  call @doitgen(%A, %C) : (memref<3x4x5xf64>, memref<5x5xf64>) -> ()
  %u_A = memref.cast %A : memref<3x4x5xf64> to memref<*xf64>
  call @printMemrefF64(%u_A) : (memref<*xf64>) -> ()
  return
}
