// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// A batched matrix product with scf.parallel over batch, rows and columns and an scf.for contraction.

// SDFG-DAG: sdfg.nested
// CHECK: {{\[\[}}[2.3125,    -0.4375,    0.25,    1.625,    -1.125],
// CHECK-NEXT: [0.6875,    0.875,    0.375,    0.5625,    0.75],
// CHECK-NEXT: [-1.625,    -1.25,    1.875,    -1.875,    -1.5]],
// CHECK-NEXT: {{\[\[}}-1.625,    1,    0.875,    1.4375,    0.625],
// CHECK-NEXT: [1.1875,    -0.8125,    -2.125,    1.375,    -0.625],
// CHECK-NEXT: [-1.5,    1.5,    1.0625,    2,    0.875]]]

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
func.func @bmm(%A: memref<2x3x4xf64>, %B: memref<2x4x5xf64>, %C: memref<2x3x5xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f64
  scf.parallel (%b, %i, %j) = (%c0, %c0, %c0) to (%c2, %c3, %c5) step (%c1, %c1, %c1) {
    %s = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> f64 {
      %x = memref.load %A[%b, %i, %k] : memref<2x3x4xf64>
      %y = memref.load %B[%b, %k, %j] : memref<2x4x5xf64>
      %p = arith.mulf %x, %y : f64
      %t = arith.addf %acc, %p : f64
      scf.yield %t : f64
    }
    memref.store %s, %C[%b, %i, %j] : memref<2x3x5xf64>
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
  %A_flat = memref.alloc() : memref<24xf64>
  %A_dyn = memref.cast %A_flat : memref<24xf64> to memref<?xf64>
  call @init1(%A_dyn, %c3) : (memref<?xf64>, index) -> ()
  %A = memref.reinterpret_cast %A_flat to offset: [0], sizes: [2, 3, 4], strides: [12, 4, 1] : memref<24xf64> to memref<2x3x4xf64>
  %B_flat = memref.alloc() : memref<40xf64>
  %B_dyn = memref.cast %B_flat : memref<40xf64> to memref<?xf64>
  call @init1(%B_dyn, %c3) : (memref<?xf64>, index) -> ()
  %B = memref.reinterpret_cast %B_flat to offset: [0], sizes: [2, 4, 5], strides: [20, 5, 1] : memref<40xf64> to memref<2x4x5xf64>
  %C = memref.alloc() : memref<2x3x5xf64>
  call @bmm(%A, %B, %C) : (memref<2x3x4xf64>, memref<2x4x5xf64>, memref<2x3x5xf64>) -> ()
  %u_C = memref.cast %C : memref<2x3x5xf64> to memref<*xf64>
  call @printMemrefF64(%u_C) : (memref<*xf64>) -> ()
  return
}
